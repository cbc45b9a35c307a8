#pragma once
// From a scene's body description to a runtime body: validation, mass and inertia, material.
#include "contactlab/scene.h"

namespace contactlab {

// Throws SceneError naming the body (index and name) and the field at fault.
Body makeBody(const BodyDesc& desc, const FrictionDefaults& defaults, int index);
// Throws SceneError when dt or gravity are unusable.
void validateSceneSettings(const Scene& scene);
// The description that rebuilds `body` as it is at time `now`, between steps of `dt`
// (World::snapshot): a velocity schedule is shifted so that the rebuilt scene, whose clock starts at
// 0, runs on unchanged.
BodyDesc describeBody(const Body& body, double now, double dt);

}  // namespace contactlab
