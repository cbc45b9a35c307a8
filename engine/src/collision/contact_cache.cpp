#include "collision/contact_cache.h"

#include <algorithm>

namespace contactlab {

void ContactCache::store(std::vector<Entry>& entries) {
  auto byKey = [](const auto& x, const auto& y) { return x.first < y.first; };
  std::stable_sort(entries.begin(), entries.end(), byKey);
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const auto& x, const auto& y) { return x.first == y.first; }),
                entries.end());
  entries_.swap(entries);
}

const CachedImpulse* ContactCache::find(const ContactKey& key) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                             [](const auto& entry, const ContactKey& k) { return entry.first < k; });
  return it != entries_.end() && it->first == key ? &it->second : nullptr;
}

}  // namespace contactlab
