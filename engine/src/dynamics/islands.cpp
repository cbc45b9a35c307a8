#include "dynamics/islands.h"

#include <numeric>

namespace contactlab {

void ContactIslands::find(const ContactProblem& problem) {
  const int slotCount = problem.numSlots;
  // The smaller slot becomes the root, so an island's root is its first slot.
  sets_.reset(slotCount);
  for (const ContactBlock& block : problem.blocks)
    if (block.slotA >= 0 && block.slotB >= 0) sets_.join(block.slotA, block.slotB);

  // Number the islands by their first slot; a root is met before the other slots of its island.
  islandOfSlot_.resize(slotCount);
  localSlot_.resize(slotCount);
  slotStart_.assign(1, 0);
  for (int slot = 0; slot < slotCount; ++slot) {
    const int first = sets_.root(slot);
    if (first == slot) {
      islandOfSlot_[slot] = static_cast<int>(slotStart_.size()) - 1;
      slotStart_.push_back(0);
    } else {
      islandOfSlot_[slot] = islandOfSlot_[first];
    }
    localSlot_[slot] = slotStart_[islandOfSlot_[slot] + 1]++;  // counts the island's slots so far
  }
  const int islandCount = count();
  for (int i = 0; i < islandCount; ++i) slotStart_[i + 1] += slotStart_[i];
  slotList_.resize(slotCount);
  for (int slot = 0; slot < slotCount; ++slot) slotList_[slotStart_[islandOfSlot_[slot]] + localSlot_[slot]] = slot;

  // Contacts by island, each under the island of its dynamic body (a contact with none has no island).
  const auto islandOfContact = [&](const ContactBlock& block) {
    const int slot = block.slotA >= 0 ? block.slotA : block.slotB;
    return slot >= 0 ? islandOfSlot_[slot] : -1;
  };
  contactStart_.assign(islandCount + 1, 0);
  for (const ContactBlock& block : problem.blocks)
    if (const int island = islandOfContact(block); island >= 0) ++contactStart_[island + 1];
  for (int i = 0; i < islandCount; ++i) contactStart_[i + 1] += contactStart_[i];
  contactList_.resize(contactStart_[islandCount]);
  filled_.assign(contactStart_.begin(), contactStart_.end() - 1);
  for (int k = 0; k < problem.numContacts(); ++k)
    if (const int island = islandOfContact(problem.blocks[k]); island >= 0) contactList_[filled_[island]++] = k;
}

void ContactIslands::extractProblem(const ContactProblem& whole, int island, ContactProblem& out) const {
  const std::span<const int> islandSlots = slots(island);
  const std::span<const int> islandContacts = contacts(island);
  out.numSlots = static_cast<int>(islandSlots.size());
  out.inverseMass.resize(islandSlots.size());
  out.freeVelocity.resize(whole.freeVelocity.empty() ? 0 : islandSlots.size());
  for (std::size_t i = 0; i < islandSlots.size(); ++i) {
    out.inverseMass[i] = whole.inverseMass[islandSlots[i]];
    if (!whole.freeVelocity.empty()) out.freeVelocity[i] = whole.freeVelocity[islandSlots[i]];
  }
  out.blocks.resize(islandContacts.size());
  for (std::size_t i = 0; i < islandContacts.size(); ++i) {
    ContactBlock block = whole.blocks[islandContacts[i]];
    if (block.slotA >= 0) block.slotA = localSlot_[block.slotA];
    if (block.slotB >= 0) block.slotB = localSlot_[block.slotB];
    out.blocks[i] = block;
  }
}

}  // namespace contactlab
