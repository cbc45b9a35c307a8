// Mesh narrowphase micro-benchmark (Google Benchmark): kDOP tree builds, the tandem traversal and
// the whole contact generation between two jack-like meshes, for each k. docs/meshes.md
// ("Collision") has the numbers and the command.
#include <benchmark/benchmark.h>

#include "collision/contact_buffer.h"
#include "collision/mesh_contacts.h"
#include "collision/pair_functions.h"
#include "support/test_meshes.h"

namespace contactlab {
namespace {

// Arms 0.4 long and 0.1 thick in cubes of 2.5 cm: 1,090 surface vertices, 2,176 triangles, 3,840
// tetrahedra.
const std::shared_ptr<const MeshGeometry>& jack() {
  static const auto mesh = test::crossMesh(16, 4, 0.025);
  return mesh;
}

// Jack B resting on jack A as in a pile: B's lower arm stands on the top of A's x arm, sunk 2 mm,
// turned 0.6 rad about the vertical and tilted 0.05 rad, so that its end face touches along one side.
Pose restingPose() {
  const Quat turn = Quat(Eigen::AngleAxisd(0.6, Vec3::UnitZ())) * Quat(Eigen::AngleAxisd(0.05, Vec3::UnitX()));
  return {Vec3(0.13, 0.0, 0.05 + 0.2 - 0.002), turn.toRotationMatrix()};
}

void BM_BuildModel(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(MeshCollisionModel(jack(), static_cast<int>(state.range(0))));
}

void BM_TandemTraversal(benchmark::State& state) {
  const MeshCollisionModel model(jack(), static_cast<int>(state.range(0)));
  const Pose bInA = restingPose();
  long pairs = 0;
  for (auto _ : state) {
    forEachOverlappingPair(model.vertexTree(), model.tetrahedronTree(), bInA, 0.01, [&](int, int) { ++pairs; });
    forEachOverlappingPair(model.vertexTree(), model.tetrahedronTree(), relativePose(bInA, Pose{}), 0.01,
                           [&](int, int) { ++pairs; });
  }
  state.counters["pairs"] = benchmark::Counter(static_cast<double>(pairs), benchmark::Counter::kAvgIterations);
}

void BM_MeshMeshContacts(benchmark::State& state) {
  const MeshCollisionModel model(jack(), static_cast<int>(state.range(0)));
  const Pose poseB = restingPose();
  ContactBuffer buffer;
  ContactManifold contacts;
  long candidates = 0;
  for (auto _ : state) {
    buffer.reset(0.01, 1e-7);
    collideMeshMesh(model, Pose{}, model, poseB, buffer);
    candidates += buffer.size();
    contacts.clear();
    buffer.finalizeInto(contacts, false, ContactBuffer::kMaxMeshClusters);
  }
  state.counters["candidates"] = benchmark::Counter(static_cast<double>(candidates), benchmark::Counter::kAvgIterations);
  state.counters["contacts"] = static_cast<double>(contacts.size());
}

void BM_PlaneMeshContacts(benchmark::State& state) {
  const MeshCollisionModel model(jack(), static_cast<int>(state.range(0)));
  const Pose pose = {Vec3(0, 0, 0.195), restingPose().rotation};
  ContactBuffer buffer;
  ContactManifold contacts;
  for (auto _ : state) {
    buffer.reset(0.01, 1e-7);
    collidePlaneMesh(PlaneShape{}, Pose{}, model, pose, buffer);
    contacts.clear();
    buffer.finalizeInto(contacts, false, ContactBuffer::kMaxMeshClusters);
  }
  state.counters["contacts"] = static_cast<double>(contacts.size());
}

BENCHMARK(BM_BuildModel)->Arg(14)->Arg(18)->Arg(26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TandemTraversal)->Arg(14)->Arg(18)->Arg(26)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MeshMeshContacts)->Arg(14)->Arg(18)->Arg(26)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlaneMeshContacts)->Arg(14)->Arg(18)->Arg(26)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace contactlab

BENCHMARK_MAIN();
