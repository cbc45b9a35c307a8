#pragma once
// Deformable bodies coloured by stress: World::deformableStress gives each tetrahedron's von Mises
// stress; a node takes the mean over the tetrahedra around it, so the colours vary smoothly over the
// surface, and a colour scale maps the range of the frame's values (or a fixed one) onto colours.
// GL-free so it can be tested; the renderer and the app's legend share the scale.
#include <span>
#include <vector>

#include "contactlab/debug_draw.h"
#include "contactlab/world.h"

namespace contactlab::render {

// Per node, the mean of `elementValues` (one per tetrahedron of `mesh`) over the tetrahedra that use
// the node; 0 for a node in none. Returns false, leaving `nodeValues` empty, when the counts differ.
bool averageAroundNodes(const DeformableMeshView& mesh, std::span<const double> elementValues,
                        std::vector<double>& nodeValues);

// The values the colour scale spans, in Pa.
struct StressRange {
  double lower = 0.0;
  double upper = 0.0;
  // Where `value` lies on the scale, in [0, 1]; 0 for an empty range.
  double position(double value) const;
};

// The colour scale at t in [0, 1] (clamped): dark blue (low) through blue, green and yellow to red
// (high), sRGB.
Color stressScaleColor(double t);

}  // namespace contactlab::render
