#pragma once
// Warm-start cache: last step's impulses keyed by (body A, body B, feature id). Friction is kept as
// a world vector so a contact whose tangent frame turned still gets the right impulse.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

struct ContactKey {
  int bodyA = -1, bodyB = -1;
  std::uint32_t feature = 0;
  auto operator<=>(const ContactKey&) const = default;
};

struct CachedImpulse {
  double normal = 0.0;
  Vec3 tangential = Vec3::Zero();  // world frame
  double torsion = 0.0;
  Vec3 point = Vec3::Zero();  // world, where the contact was
};

class ContactCache {
 public:
  void clear() { entries_.clear(); }
  using Entry = std::pair<ContactKey, CachedImpulse>;
  // Replaces the cache with this step's contacts (keys need not be sorted or unique; the first
  // wins). Swaps buffers: `entries` comes back holding the previous step's, so the caller can
  // refill it next step without allocating.
  void store(std::vector<Entry>& entries);
  // The impulse stored under `key`, if any. `cursor` (0 before the first lookup of a pass) keeps
  // the position reached: a step's contacts come sorted by (pair, feature), as the cache is, so
  // each lookup is a short step forward from the previous one rather than a binary search over
  // the whole cache. Keys in any order still give the right answer.
  // The entry found is claimed (see findNearest) until the next beginLookups.
  const CachedImpulse* find(const ContactKey& key, std::size_t& cursor);
  // For a contact whose feature the cache does not know (a box pair's clipping can renumber the
  // features of points that stay put): the unclaimed entry of the same pair whose point was nearest
  // `point`, if one was within `radius`; it is claimed, so no impulse is handed out twice.
  const CachedImpulse* findNearest(const ContactKey& key, const Vec3& point, double radius);
  // Appends to `entries` the stored entries whose key `keep` accepts: the contacts of a sleeping
  // island, which no step finds until the island wakes, keep their impulses for that step.
  template <class Keep>
  void carryOver(std::vector<Entry>& entries, Keep&& keep) const {
    for (const Entry& entry : entries_)
      if (keep(entry.first)) entries.push_back(entry);
  }
  const std::vector<Entry>& entries() const { return entries_; }  // sorted by key
  // Starts a step's lookups: every entry unclaimed.
  void beginLookups() { claimed_.assign(entries_.size(), 0); }

 private:
  std::vector<Entry> entries_;  // sorted by key
  std::vector<char> claimed_;   // per entry: handed to a contact since beginLookups
};

}  // namespace contactlab
