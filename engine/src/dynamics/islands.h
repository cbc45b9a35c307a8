#pragma once
// Contact islands: the dynamic bodies joined by contacts, each solved as a contact problem of its
// own. Static and kinematic bodies join no island: they do not move in the solve, so two stacks on
// one floor are independent problems. An island's problem, and so its solution, depends on its own
// bodies and contacts only: adding or removing a body elsewhere does not change a bit of it.
#include <span>
#include <vector>

#include "core/disjoint_sets.h"
#include "problem/contact_problem.h"

namespace contactlab {

class ContactIslands {
 public:
  // Every dynamic body (slot) of `problem` is in exactly one island, a body without contacts alone in
  // its own. Islands are numbered in the order of their first slot; slots and contacts within an
  // island are in increasing order.
  void find(const ContactProblem& problem);

  int count() const { return static_cast<int>(slotStart_.size()) - 1; }
  std::span<const int> slots(int island) const {
    return {slotList_.data() + slotStart_[island], slotList_.data() + slotStart_[island + 1]};
  }
  std::span<const int> contacts(int island) const {
    return {contactList_.data() + contactStart_[island], contactList_.data() + contactStart_[island + 1]};
  }
  int islandOfSlot(int slot) const { return islandOfSlot_[slot]; }
  // The slot's index within its island: its slot in the island's own problem.
  int localSlot(int slot) const { return localSlot_[slot]; }

  // The island's own problem: its contacts in order, its slots renumbered 0, 1, ... in increasing
  // order (so the same island gives the same problem whatever else the world holds).
  void extractProblem(const ContactProblem& whole, int island, ContactProblem& out) const;
  // Whether island's problem is `whole` itself: it holds every slot and every contact.
  bool isWhole(const ContactProblem& whole, int island) const {
    return slots(island).size() == static_cast<std::size_t>(whole.numSlots) &&
           contacts(island).size() == static_cast<std::size_t>(whole.numContacts());
  }

 private:
  DisjointSets sets_;  // over slots
  std::vector<int> islandOfSlot_, localSlot_;
  std::vector<int> slotStart_{0}, slotList_;     // island i's slots: slotList_[slotStart_[i] .. slotStart_[i + 1])
  std::vector<int> contactStart_, contactList_;  // the same for its contacts
  std::vector<int> filled_;                      // find's scratch: next free place per island
};

}  // namespace contactlab
