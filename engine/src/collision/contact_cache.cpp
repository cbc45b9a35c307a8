#include "collision/contact_cache.h"

#include <algorithm>

namespace contactlab {

void ContactCache::store(std::vector<Entry>& entries) {
  auto byKey = [](const auto& x, const auto& y) { return x.first < y.first; };
  // Contacts are generated in key order (pairs sorted, points sorted by feature), so the sort is
  // nearly always a no-op; checking first saves its copies of the whole list.
  if (!std::is_sorted(entries.begin(), entries.end(), byKey))
    std::stable_sort(entries.begin(), entries.end(), byKey);
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const auto& x, const auto& y) { return x.first == y.first; }),
                entries.end());
  entries_.swap(entries);
  beginLookups();
}

const CachedImpulse* ContactCache::find(const ContactKey& key, std::size_t& cursor) {
  // Every entry before the cursor must be below the key for the search to start there.
  if (cursor > entries_.size() || (cursor > 0 && !(entries_[cursor - 1].first < key))) cursor = 0;
  auto it = entries_.begin() + static_cast<std::ptrdiff_t>(cursor);
  constexpr int kShortScan = 8;  // the next key is usually the next entry or a few further
  for (int i = 0; i < kShortScan && it != entries_.end() && it->first < key; ++i) ++it;
  if (it != entries_.end() && it->first < key)
    it = std::lower_bound(it, entries_.end(), key,
                          [](const auto& entry, const ContactKey& k) { return entry.first < k; });
  cursor = static_cast<std::size_t>(it - entries_.begin());
  if (it == entries_.end() || !(it->first == key)) return nullptr;
  claimed_[cursor] = 1;
  return &it->second;
}

const CachedImpulse* ContactCache::findNearest(const ContactKey& key, const Vec3& point, double radius) {
  const auto samePair = [&](const Entry& entry) { return entry.first.bodyA == key.bodyA && entry.first.bodyB == key.bodyB; };
  const ContactKey pairStart{key.bodyA, key.bodyB, 0};
  const std::size_t first = static_cast<std::size_t>(
      std::lower_bound(entries_.begin(), entries_.end(), pairStart,
                       [](const Entry& entry, const ContactKey& k) { return entry.first < k; }) -
      entries_.begin());
  std::size_t nearest = entries_.size();
  double nearestDistance = radius;
  for (std::size_t i = first; i < entries_.size() && samePair(entries_[i]); ++i) {
    const double distance = (entries_[i].second.point - point).norm();
    if (!claimed_[i] && distance <= nearestDistance) {
      nearestDistance = distance;
      nearest = i;
    }
  }
  if (nearest == entries_.size()) return nullptr;
  claimed_[nearest] = 1;
  return &entries_[nearest].second;
}

}  // namespace contactlab
