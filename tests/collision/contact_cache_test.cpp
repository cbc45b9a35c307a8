// The warm-start cache (engine/src/collision/contact_cache.h): lookups by key, and the nearest
// unclaimed entry of a pair for a contact whose feature is new.
#include "collision/contact_cache.h"

#include <gtest/gtest.h>

#include <vector>

namespace contactlab {
namespace {

ContactCache cacheOf(std::vector<ContactCache::Entry> entries) {
  ContactCache cache;
  cache.store(entries);
  return cache;
}

ContactCache::Entry entry(int a, int b, std::uint32_t feature, double normal, const Vec3& point) {
  CachedImpulse impulse;
  impulse.normal = normal;
  impulse.point = point;
  return {{a, b, feature}, impulse};
}

TEST(ContactCache, FindsEntriesByKeyInAnyOrder) {
  ContactCache cache = cacheOf({entry(0, 1, 7, 1.0, Vec3::Zero()), entry(0, 2, 3, 2.0, Vec3::Zero()),
                                entry(1, 2, 5, 3.0, Vec3::Zero())});
  std::size_t cursor = 0;
  ASSERT_NE(cache.find({1, 2, 5}, cursor), nullptr);
  EXPECT_EQ(cache.find({0, 1, 7}, cursor)->normal, 1.0);
  EXPECT_EQ(cache.find({0, 2, 4}, cursor), nullptr);
}

TEST(ContactCache, NearestEntryOfThePairWithinTheRadiusAndEachEntryOnce) {
  ContactCache cache = cacheOf({entry(0, 1, 1, 1.0, Vec3(0, 0, 0)), entry(0, 1, 2, 2.0, Vec3(0.1, 0, 0)),
                                entry(0, 1, 3, 3.0, Vec3(0.004, 0, 0)), entry(0, 2, 1, 4.0, Vec3(0.001, 0, 0))});
  std::size_t cursor = 0;
  ASSERT_NE(cache.find({0, 1, 1}, cursor), nullptr);  // claims the entry at the origin
  // A new feature near the origin: the origin's entry is taken, so the one 4 mm away (pair 0-1, not
  // pair 0-2's, however near).
  const ContactKey fresh{0, 1, 9};
  EXPECT_EQ(cache.find(fresh, cursor), nullptr);
  const CachedImpulse* nearest = cache.findNearest(fresh, Vec3(0.0005, 0, 0), 0.01);
  ASSERT_NE(nearest, nullptr);
  EXPECT_EQ(nearest->normal, 3.0);
  // Nothing else of the pair lies within 1 cm.
  EXPECT_EQ(cache.findNearest(fresh, Vec3(0.0005, 0, 0), 0.01), nullptr);
  // A new step's lookups start unclaimed.
  cache.beginLookups();
  EXPECT_EQ(cache.findNearest(fresh, Vec3(0.0005, 0, 0), 0.01)->normal, 1.0);
}

}  // namespace
}  // namespace contactlab
