#pragma once
// From a scene's body description to a runtime body: validation, mass and inertia, material.
#include "contactlab/scene.h"

namespace contactlab {

// Throws SceneError naming the body (index and name) and the field at fault.
Body makeBody(const BodyDesc& desc, const FrictionDefaults& defaults, int index);
// Throws SceneError when dt or gravity are unusable.
void validateSceneSettings(const Scene& scene);
// The description that rebuilds `body` as it is (World::snapshot); its velocity schedule keeps the
// world's times, which the snapshot's Scene::time carries on.
BodyDesc describeBody(const Body& body);

}  // namespace contactlab
