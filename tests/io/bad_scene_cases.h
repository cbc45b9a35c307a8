#pragma once
// The broken scene files of tests/data/bad_scenes and what their error message must name; shared by
// the parser test and the CLI test so both check the same cases.
#include <string>
#include <vector>

namespace contactlab::testing {

struct BadSceneCase {
  std::string file;         // under CONTACTLAB_TEST_DATA/bad_scenes
  std::string mustMention;  // the key path or value at fault
};

inline const std::vector<BadSceneCase>& badSceneCases() {
  static const std::vector<BadSceneCase> cases = {
      {"missing_field.json", "bodies[0].radius"},   {"wrong_type.json", "bodies[0].radius"},
      {"negative_size.json", "bodies[1].size"},     {"number_overflow.json", "bodies[0].position[2]"},
      {"zero_quaternion.json", "bodies[0].orientation"}, {"unknown_key.json", "bodies[0].colour"},
      {"unknown_shape.json", "\"cone\""},           {"negative_dt.json", "dt: must be positive"},
      {"truncated.json", "invalid JSON"},           {"empty.json", "empty file"},
      {"not_an_object.json", "top level"},
      {"deformable_poisson_ratio.json", "bodies[1].deformable.poisson_ratio"},
      {"deformable_static_body.json", "bodies[0].deformable: only a dynamic body"},
      {"deformable_unknown_model.json", "bodies[0].deformable.model: unknown model \"jelly\""},
      {"empty_bodies.json", "bodies: is empty"},
  };
  return cases;
}

inline std::string badScenePath(const std::string& file) {
  return std::string(CONTACTLAB_TEST_DATA) + "/bad_scenes/" + file;
}

}  // namespace contactlab::testing
