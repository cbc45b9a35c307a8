#include "solvers/prox/prox_gauss_seidel.h"

#include "core/thread_pool.h"
#include "solvers/prox/ellipsoid_search.h"
#include "solvers/prox/gathered_search.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace contactlab {
namespace {

using LanePack = ProxGaussSeidel::LanePack;
static_assert(ProxGaussSeidel::kGroupWidth == 4, "the transposes below are 4 x 4");
// Unaligned views of w's doubles: a slot's six values start at any multiple of 6.
using UnalignedPack = double __attribute__((vector_size(4 * sizeof(double)), aligned(sizeof(double)), may_alias));
using UnalignedPair = double __attribute__((vector_size(2 * sizeof(double)), aligned(sizeof(double)), may_alias));
using Pair = double __attribute__((vector_size(2 * sizeof(double))));

// What padding lanes and static sides read in prepare: zeros (referred to, not copied per lane).
const ContactBlock kPaddingBlock{};
const SlotInverseMass kNoResponse{};

// Lane l of out[i] := w[offset[l] + i]: the four slots' (v, omega) as whole-slot loads (entries
// 0-3 and 4-5) and a 4 x 4 and a 2 x 4 transpose, written so that GCC keeps them in registers
// (unpack and 128-bit lane moves; in the AVX2 clone about 20 instructions instead of 48 scalar
// loads and inserts). Pure data movement: the numbers are those of an element-by-element gather.
// The four slots of one side of a group are distinct (lanes share no dynamic body, and static
// sides use their lane's own zero slot), so the whole-slot stores of scatterSlots do not overlap.
[[gnu::always_inline]] inline void gatherSlots(const double* w, const std::array<std::ptrdiff_t, 4>& offset, LanePack (&out)[6]) {
  const double* s0 = w + offset[0];
  const double* s1 = w + offset[1];
  const double* s2 = w + offset[2];
  const double* s3 = w + offset[3];
  const LanePack a0 = *reinterpret_cast<const UnalignedPack*>(s0), a1 = *reinterpret_cast<const UnalignedPack*>(s1);
  const LanePack a2 = *reinterpret_cast<const UnalignedPack*>(s2), a3 = *reinterpret_cast<const UnalignedPack*>(s3);
  const LanePack even01 = __builtin_shufflevector(a0, a1, 0, 4, 2, 6), odd01 = __builtin_shufflevector(a0, a1, 1, 5, 3, 7);
  const LanePack even23 = __builtin_shufflevector(a2, a3, 0, 4, 2, 6), odd23 = __builtin_shufflevector(a2, a3, 1, 5, 3, 7);
  out[0] = __builtin_shufflevector(even01, even23, 0, 1, 4, 5);
  out[1] = __builtin_shufflevector(odd01, odd23, 0, 1, 4, 5);
  out[2] = __builtin_shufflevector(even01, even23, 2, 3, 6, 7);
  out[3] = __builtin_shufflevector(odd01, odd23, 2, 3, 6, 7);
  const Pair b0 = *reinterpret_cast<const UnalignedPair*>(s0 + 4), b1 = *reinterpret_cast<const UnalignedPair*>(s1 + 4);
  const Pair b2 = *reinterpret_cast<const UnalignedPair*>(s2 + 4), b3 = *reinterpret_cast<const UnalignedPair*>(s3 + 4);
  const LanePack b02 = __builtin_shufflevector(b0, b2, 0, 1, 2, 3), b13 = __builtin_shufflevector(b1, b3, 0, 1, 2, 3);
  out[4] = __builtin_shufflevector(b02, b13, 0, 4, 2, 6);
  out[5] = __builtin_shufflevector(b02, b13, 1, 5, 3, 7);
}

// w[offset[l] + i] := lane l of in[i], the inverse of gatherSlots.
[[gnu::always_inline]] inline void scatterSlots(const LanePack (&in)[6], const std::array<std::ptrdiff_t, 4>& offset, double* w) {
  double* s0 = w + offset[0];
  double* s1 = w + offset[1];
  double* s2 = w + offset[2];
  double* s3 = w + offset[3];
  const LanePack even01 = __builtin_shufflevector(in[0], in[1], 0, 4, 2, 6), odd01 = __builtin_shufflevector(in[0], in[1], 1, 5, 3, 7);
  const LanePack even23 = __builtin_shufflevector(in[2], in[3], 0, 4, 2, 6), odd23 = __builtin_shufflevector(in[2], in[3], 1, 5, 3, 7);
  *reinterpret_cast<UnalignedPack*>(s0) = __builtin_shufflevector(even01, even23, 0, 1, 4, 5);
  *reinterpret_cast<UnalignedPack*>(s1) = __builtin_shufflevector(odd01, odd23, 0, 1, 4, 5);
  *reinterpret_cast<UnalignedPack*>(s2) = __builtin_shufflevector(even01, even23, 2, 3, 6, 7);
  *reinterpret_cast<UnalignedPack*>(s3) = __builtin_shufflevector(odd01, odd23, 2, 3, 6, 7);
  const LanePack pairs02 = __builtin_shufflevector(in[4], in[5], 0, 4, 2, 6), pairs13 = __builtin_shufflevector(in[4], in[5], 1, 5, 3, 7);
  *reinterpret_cast<UnalignedPair*>(s0 + 4) = __builtin_shufflevector(pairs02, pairs02, 0, 1);
  *reinterpret_cast<UnalignedPair*>(s1 + 4) = __builtin_shufflevector(pairs13, pairs13, 0, 1);
  *reinterpret_cast<UnalignedPair*>(s2 + 4) = __builtin_shufflevector(pairs02, pairs02, 2, 3);
  *reinterpret_cast<UnalignedPair*>(s3 + 4) = __builtin_shufflevector(pairs13, pairs13, 2, 3);
}

// Row i of a x b, lane by lane.
[[gnu::always_inline]] inline LanePack crossRow(const LanePack (&a)[3], const LanePack (&b)[3], int i) {
  const int j = (i + 1) % 3, k = (i + 2) % 3;
  return a[j] * b[k] - a[k] * b[j];
}

}  // namespace

ProxGaussSeidel::ProxGaussSeidel(int maxRun, int splitFromContacts)
    : ProxSolver(ProxAlgorithm::GaussSeidel), maxRun_(maxRun), splitFromContacts_(splitFromContacts) {
  if (maxRun < 1 || maxRun > kMaxRun) throw std::invalid_argument("ProxGaussSeidel: maxRun must be 1 to " + std::to_string(kMaxRun));
  if (splitFromContacts < 1) throw std::invalid_argument("ProxGaussSeidel: splitFromContacts must be at least 1");
}

void ProxGaussSeidel::formGroups(const ContactProblem& problem) {
  const int contacts = problem.numContacts();
  const auto sameSlots = [&] {
    if (static_cast<int>(groupedSlots_.size()) != 2 * contacts || groupedNumSlots_ != problem.numSlots) return false;
    for (int k = 0; k < contacts; ++k)
      if (groupedSlots_[2 * k] != problem.blocks[k].slotA || groupedSlots_[2 * k + 1] != problem.blocks[k].slotB) return false;
    return true;
  };
  if (!groups_.empty() && sameSlots()) return;
  groupedSlots_.resize(2 * contacts);
  groupedNumSlots_ = problem.numSlots;
  for (int k = 0; k < contacts; ++k) {
    groupedSlots_[2 * k] = problem.blocks[k].slotA;
    groupedSlots_[2 * k + 1] = problem.blocks[k].slotB;
  }
  splitContacts(problem);
  packed_.clear();
  sweepOrder_.clear();
  grouped_.assign(contacts, 0);
  groupOfSlot_.assign(problem.numSlots, -1);
  for (int part = 0; part < kParts; ++part) {
    const int begin = static_cast<int>(packed_.size());
    packGroups(contactsOfPart_[part]);
    const int end = static_cast<int>(packed_.size());
    interleaveGroups(problem, begin, end);
    partBegin_[part] = begin;
    partBegin_[part + 1] = end;
  }
  // The groups in sweep order, and for each how many of those just before it in its part share no
  // dynamic body with it (updateRange updates such runs together; a run stays within a part).
  const int count = static_cast<int>(packed_.size());
  groupOfSlot_.assign(problem.numSlots, kNever);  // the position of the last group touching each body
  groups_.resize(count);
  for (int part = 0; part < kParts; ++part)
    for (int position = partBegin_[part]; position < partBegin_[part + 1]; ++position) {
      const PackedGroup& packed = packed_[sweepOrder_[position]];
      int lastSharing = kNever;  // the latest position before this one with a group sharing a body
      for (const int slot : packed.slots)
        if (slot >= 0) {
          lastSharing = std::max(lastSharing, groupOfSlot_[slot]);
          groupOfSlot_[slot] = position;
        }
      groups_[position].contact = packed.contact;
      groups_[position].independentBefore =
          std::min({position - 1 - lastSharing, position - partBegin_[part], kIndependentGroups});
    }
}

// contactsOfPart_ := the contacts whose dynamic bodies all have slots below s, those whose dynamic
// bodies all have slots from s on, and the others, for the s that minimizes the larger of the first
// two counts plus the third (the sweep's length on two threads); every contact in the third part
// when the problem has fewer than splitFromContacts_ or no s shortens the sweep.
void ProxGaussSeidel::splitContacts(const ContactProblem& problem) {
  for (std::vector<int>& part : contactsOfPart_) part.clear();
  const int contacts = problem.numContacts();
  const int slots = problem.numSlots;
  auto lowest = [&](int k) {
    const int a = groupedSlots_[2 * k], b = groupedSlots_[2 * k + 1];
    return a < 0 ? b : b < 0 ? a : std::min(a, b);
  };
  auto highest = [&](int k) { return std::max(groupedSlots_[2 * k], groupedSlots_[2 * k + 1]); };
  int split = -1;
  if (contacts >= splitFromContacts_ && slots >= 2) {
    // contactsUpToSlot_[s]: contacts whose highest slot is below s; contactsFromSlot_[s]: whose
    // lowest slot is s or above.
    contactsUpToSlot_.assign(slots + 1, 0);
    contactsFromSlot_.assign(slots + 1, 0);
    for (int k = 0; k < contacts; ++k) {
      if (highest(k) < 0) continue;  // no dynamic body (the World makes none): the third part
      ++contactsUpToSlot_[highest(k) + 1];
      ++contactsFromSlot_[lowest(k)];
    }
    for (int s = 1; s <= slots; ++s) contactsUpToSlot_[s] += contactsUpToSlot_[s - 1];
    for (int s = slots - 1; s >= 0; --s) contactsFromSlot_[s] += contactsFromSlot_[s + 1];
    int shortest = contacts;
    for (int s = 1; s < slots; ++s) {
      const int below = contactsUpToSlot_[s], above = contactsFromSlot_[s];
      const int length = std::max(below, above) + (contacts - below - above);
      if (length < shortest) shortest = length, split = s;
    }
  }
  for (int k = 0; k < contacts; ++k) {
    const int part = split < 0 || highest(k) < 0 ? 2 : highest(k) < split ? 0 : lowest(k) >= split ? 1 : 2;
    contactsOfPart_[part].push_back(k);
  }
}

// Appends to packed_ the groups of `contacts` (in assembly order): each group opens with the
// earliest contact not yet grouped, so `first` moves on with every group and the search for
// partners looks at no more than kLookahead candidates.
void ProxGaussSeidel::packGroups(const std::vector<int>& contacts) {
  const int count = static_cast<int>(contacts.size());
  for (int first = 0; first < count;) {
    const int groupIndex = static_cast<int>(packed_.size());
    PackedGroup& group = packed_.emplace_back();
    group.contact.fill(-1);
    group.slots.fill(-1);
    auto touchesGroup = [&](int slot) { return slot >= 0 && groupOfSlot_[slot] == groupIndex; };
    int lanes = 0;
    for (int i = first, candidates = 0; i < count && lanes < kGroupWidth && candidates < kLookahead; ++i) {
      const int k = contacts[i];
      if (grouped_[k]) continue;
      ++candidates;
      const int slotA = groupedSlots_[2 * k], slotB = groupedSlots_[2 * k + 1];
      if (touchesGroup(slotA) || touchesGroup(slotB)) continue;
      for (const int slot : {slotA, slotB})
        if (slot >= 0) groupOfSlot_[slot] = groupIndex;
      grouped_[k] = 1;
      group.slots[2 * lanes] = slotA;
      group.slots[2 * lanes + 1] = slotB;
      group.contact[lanes++] = k;
    }
    while (first < count && grouped_[contacts[first]]) ++first;
  }
}

// Appends to sweepOrder_ the packed groups [begin, end) reordered so that, where possible, each
// group shares no dynamic body with the kIndependentGroups groups before it: position by position,
// the earliest group not yet placed that qualifies among the next kInterleaveWindow, else the
// earliest of those that share no body with the most groups before it. The sweep stays
// Gauss-Seidel (see the class comment); only the order of the groups changes, and it depends on
// the contacts' bodies alone, so it is deterministic.
void ProxGaussSeidel::interleaveGroups(const ContactProblem& problem, int begin, int end) {
  const int count = end - begin;
  // groupOfSlot_ now holds the position (in this part) of the last placed group touching each body.
  groupOfSlot_.assign(problem.numSlots, kNever);
  // The packed groups not yet placed, in packing order: nextUnplaced_[i + 1] follows i (index 0 is
  // the list's head, count its end; indices relative to begin).
  nextUnplaced_.resize(count + 1);
  for (int i = 0; i <= count; ++i) nextUnplaced_[i] = i;
  for (int position = 0; position < count; ++position) {
    // How many of the groups just before this position share no body with `group`.
    const auto independence = [&](const PackedGroup& group) {
      int depth = kIndependentGroups;
      for (const int slot : group.slots)
        if (slot >= 0) depth = std::min(depth, position - 1 - groupOfSlot_[slot]);
      return depth;
    };
    int before = 0;  // list entry before the pick (0: the head)
    int deepest = -1;
    for (int entry = 0, candidates = 0; nextUnplaced_[entry] < count && candidates < kInterleaveWindow;
         entry = nextUnplaced_[entry] + 1, ++candidates) {
      const int depth = independence(packed_[begin + nextUnplaced_[entry]]);
      if (depth > deepest) {
        deepest = depth;
        before = entry;
        if (depth == kIndependentGroups) break;
      }
    }
    const int pick = nextUnplaced_[before];
    nextUnplaced_[before] = nextUnplaced_[pick + 1];
    for (const int slot : packed_[begin + pick].slots)
      if (slot >= 0) groupOfSlot_[slot] = position;
    sweepOrder_.push_back(begin + pick);
  }
}

void ProxGaussSeidel::prepare(const ContactProblem& problem, const RFactors& r) {
  formGroups(problem);
  rFactorStride_ = r.isDiagonal() && !r.sameForEveryContact() ? 1 : 0;
  rFactors_.assign(rFactorStride_ == 1 ? groups_.size() : 1, GroupRFactors{});
  const auto setRFactors = [&](GroupRFactors& rFactors, int lane, int k) {
    for (int row = 0; row < 4; ++row) rFactors.rDiagonal[row][lane] = r.unscaledDiagonal(k)[row];
    for (int row = 0; row < 3; ++row) rFactors.frictionMetricSqrt[row][lane] = r.frictionMetricSqrt(k)[row];
  };
  spheroidSearch_ = r.isDiagonal();
  for (int k = 0; k < problem.numContacts() && spheroidSearch_; ++k)
    spheroidSearch_ = problem.blocks[k].friction[0] == problem.blocks[k].friction[1] &&
                      r.frictionMetricSqrt(k)[0] == r.frictionMetricSqrt(k)[1];
  // Global: the one entry holds the R of every contact in every lane. Blocked: zeros, not read.
  if (r.isDiagonal() && rFactorStride_ == 0 && problem.numContacts() > 0)
    for (int lane = 0; lane < kGroupWidth; ++lane) setRFactors(rFactors_[0], lane, 0);
  for (int part = 0; part < kParts; ++part)
    for (int position = partBegin_[part]; position < partBegin_[part + 1]; ++position) {
      ContactGroup& group = groups_[position];
      for (int lane = 0; lane < kGroupWidth; ++lane) {
        const int k = group.contact[lane];
        const ContactBlock& block = k >= 0 ? problem.blocks[k] : kPaddingBlock;
        if (k >= 0 && rFactorStride_ == 1) setRFactors(rFactors_[position], lane, k);  // Local
        for (int row = 0; row < 3; ++row) {
          group.normal[row][lane] = block.frame(row, 0);
          group.tangentT[row][lane] = block.frame(row, 1);
          group.tangentS[row][lane] = block.frame(row, 2);
          group.armA[row][lane] = block.armA[row];
          group.armB[row][lane] = block.armB[row];
          group.friction[row][lane] = block.friction[row];
        }
        for (int row = 0; row < 4; ++row) {
          group.b[row][lane] = block.b[row];
          group.diagonalA[row][lane] = block.diagonalA[row];
        }
        auto setResponse = [&](int slot, LanePack& mass, LanePack (&inertia)[6]) {
          const SlotInverseMass& m = slot >= 0 ? problem.inverseMass[slot] : kNoResponse;
          const Mat3& i = m.invInertiaWorld;
          const double entries[6] = {i(0, 0), i(1, 1), i(2, 2), i(0, 1), i(0, 2), i(1, 2)};
          mass[lane] = m.invMass;
          for (int e = 0; e < 6; ++e) inertia[e][lane] = entries[e];
        };
        setResponse(block.slotA, group.massA, group.inertiaA);
        setResponse(block.slotB, group.massB, group.inertiaB);
        // A side that does not move reads and writes a zero slot of its own lane: w = 0 there, and
        // its zero inverse mass keeps it zero. Groups within kZeroSlotSets positions of each other
        // (a run, or groups interleaved to be independent) use different sets of zero slots, as they
        // use different bodies: with one set, each group's loads of a zero slot would depend on the
        // previous group's stores to it. Each part has sets of its own, so that the two parts that
        // run at the same time never store to the same slot.
        const std::ptrdiff_t zeroSlot =
            problem.numSlots +
            kGroupWidth * std::ptrdiff_t(kZeroSlotSets * part + (position - partBegin_[part]) % kZeroSlotSets) + lane;
        group.offsetA[lane] = 6 * (block.slotA >= 0 ? block.slotA : zeroSlot);
        group.offsetB[lane] = 6 * (block.slotB >= 0 ? block.slotB : zeroSlot);
      }
    }
}

// w += M^-1 J^T dlambda for the lanes of a group, w of both sides in lanes: body B takes
// +[P; r_B x P + n dtau] with P = C dlambda_nts, body A the opposite (see ContactBlock).
[[gnu::always_inline]] inline void ProxGaussSeidel::addResponse(const ContactGroup& g, const GroupLambda& delta,
                                                                LanePack (&wA)[6], LanePack (&wB)[6]) {
  LanePack impulse[3], momentA[3], momentB[3];
  for (int i = 0; i < 3; ++i)
    impulse[i] = g.normal[i] * delta[kNormal] + g.tangentT[i] * delta[kTangentT] + g.tangentS[i] * delta[kTangentS];
  for (int i = 0; i < 3; ++i) {
    const LanePack torsion = g.normal[i] * delta[kTorsion];
    momentA[i] = crossRow(g.armA, impulse, i) + torsion;
    momentB[i] = crossRow(g.armB, impulse, i) + torsion;
  }
  // I^-1 m with I^-1 from its six entries (xx, yy, zz, xy, xz, yz).
  auto inertiaTimes = [](const LanePack (&inertia)[6], const LanePack (&m)[3], int i) __attribute__((always_inline)) {
    constexpr int kEntry[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
    return inertia[kEntry[i][0]] * m[0] + inertia[kEntry[i][1]] * m[1] + inertia[kEntry[i][2]] * m[2];
  };
  for (int i = 0; i < 3; ++i) {
    wA[i] -= g.massA * impulse[i];
    wB[i] += g.massB * impulse[i];
    wA[3 + i] -= inertiaTimes(g.inertiaA, momentA, i);
    wB[3 + i] += inertiaTimes(g.inertiaB, momentB, i);
  }
}

void ProxGaussSeidel::setIterate(const ContactProblem& problem, const Eigen::VectorXd& lambda) {
  for (std::vector<GroupLambda>& buffer : lambdaBuffers_) buffer.resize(groups_.size());
  std::vector<GroupLambda>& current = lambdaBuffers_[currentBuffer_];
  for (std::size_t i = 0; i < groups_.size(); ++i)
    for (int lane = 0; lane < kGroupWidth; ++lane) {
      const int k = groups_[i].contact[lane];
      for (int row = 0; row < 4; ++row) current[i][row][lane] = k >= 0 ? lambda[4 * k + row] : 0.0;
    }
  // Alg. 2, line 3, plus the zero slots of the static sides.
  w_.setZero(6 * (problem.numSlots + kGroupWidth * kZeroSlotSets * kParts));
  setResponseOfCurrentIterate();
}

// w = M^-1 J^T lambda for the current iterate, by the sweep's own response to dlambda = lambda,
// group by group (compiled like updateRange). It sums each body's terms in sweep order where
// applyInvMassJt sums them in contact order, so the two agree up to rounding.
[[gnu::target_clones("arch=x86-64-v4", "avx2", "default")]] void ProxGaussSeidel::setResponseOfCurrentIterate() {
  const std::vector<GroupLambda>& current = lambdaBuffers_[currentBuffer_];
  double* const w = w_.data();
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    const ContactGroup& group = groups_[i];
    LanePack wA[6], wB[6];
    gatherSlots(w, group.offsetA, wA);
    gatherSlots(w, group.offsetB, wB);
    addResponse(group, current[i], wA, wB);
    scatterSlots(wA, group.offsetA, w);
    scatterSlots(wB, group.offsetB, w);
  }
}

void ProxGaussSeidel::keepBestIterate() { bestBuffer_ = currentBuffer_; }

void ProxGaussSeidel::restoreBestIterate(const ContactProblem&) {
  // w from the restored iterate as at the start of the solve (rare: only after a divergence).
  currentBuffer_ = bestBuffer_;
  w_.setZero();
  setResponseOfCurrentIterate();
}

void ProxGaussSeidel::getIterate(Eigen::VectorXd& lambda) const {
  const std::vector<GroupLambda>& current = lambdaBuffers_[currentBuffer_];
  for (std::size_t i = 0; i < groups_.size(); ++i)
    for (int lane = 0; lane < kGroupWidth; ++lane)
      if (const int k = groups_[i].contact[lane]; k >= 0)
        for (int row = 0; row < 4; ++row) lambda[4 * k + row] = current[i][row][lane];
}

// What the first part of a group's update (beginUpdate) leaves for the closest-point search and
// for the rest (finishUpdate).
struct ProxGaussSeidel::UpdateState {
  LanePack wA[6], wB[6];  // w of both sides, (linear, angular), one lane per contact
  LanePack z[4];          // z = lambda - R v (eq. 25)
  LanePack next[4];       // lambda^{k+1} where decided (normal, inside points, separating contacts)
  LanePack axes[3];       // the friction ellipsoid's semi-axes, sized by the new lambda_n
  LanePack scaledZ[3], scaledAxes[3];  // the search's problem in the substitution y = sqrt(G) x
  LaneMask outside;       // lanes whose friction needs the search
  LaneMask together;      // outside lanes the vector search may take (diagonal metric, solid ellipsoid)
  int lanesTogether;
};

// Alg. 2, lines 5-8, up to the closest-point search, for the lanes of one group at once.
[[gnu::always_inline]] inline void ProxGaussSeidel::beginUpdate(const ContactGroup& g, const GroupRFactors& rFactors,
                                                                 const GroupLambda& lambda, const double* w,
                                                                 const RFactors& r, UpdateState& s) {
  constexpr int L = kGroupWidth;
  auto dot = [](const LanePack (&a)[3], const LanePack (&b)[3]) __attribute__((always_inline)) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };

  gatherSlots(w, g.offsetA, s.wA);
  gatherSlots(w, g.offsetB, s.wB);

  // v = J w + b (eq. 56): the velocity of B's material point against A's in the frame rows, and
  // the relative spin about n. Then z = lambda - R v (eq. 25).
  LanePack relative[3], spin[3];
  {
    const LanePack angularA[3] = {s.wA[3], s.wA[4], s.wA[5]}, angularB[3] = {s.wB[3], s.wB[4], s.wB[5]};
    for (int i = 0; i < 3; ++i) {
      relative[i] = (s.wB[i] + crossRow(angularB, g.armB, i)) - (s.wA[i] + crossRow(angularA, g.armA, i));
      spin[i] = angularB[i] - angularA[i];
    }
  }
  LanePack* const z = s.z;
  z[kNormal] = g.b[kNormal] + dot(g.normal, relative);
  z[kTangentT] = g.b[kTangentT] + dot(g.tangentT, relative);
  z[kTangentS] = g.b[kTangentS] + dot(g.tangentS, relative);
  z[kTorsion] = g.b[kTorsion] + dot(g.normal, spin);
  if (r.isDiagonal()) {
    const double scale = r.scale();
    for (int row = 0; row < 4; ++row) z[row] = lambda[row] - scale * (rFactors.rDiagonal[row] * z[row]);
  } else {
    for (int l = 0; l < L; ++l) {
      if (g.contact[l] < 0) continue;  // padding: v = 0, so z = lambda = 0
      const Vec4 rv = r.apply(g.contact[l], Vec4(z[0][l], z[1][l], z[2][l], z[3][l]));
      for (int row = 0; row < 4; ++row) z[row][l] = lambda[row][l] - rv[row];
    }
  }

  // lambda_n = prox_N(z_n) (eq. 21a); lambda_f = prox_F(z_f) (eq. 21b) with F sized by the new
  // lambda_n. A separating contact's F is the origin and a point inside F is its own projection;
  // only the lanes outside need the closest-point search of sec. 4.1. With a diagonal metric G
  // (Global, Local) and a solid ellipsoid, the outside lanes run that search together on the
  // substituted problem y = sqrt(G) x, as proxEllipsoidInDiagonalMetric does for one contact (and
  // with the same result); the others (flattened ellipsoids, extreme magnitudes, Blocked) one by one.
  s.next[kNormal] = z[kNormal] > 0.0 ? z[kNormal] : 0.0;
  for (int i = 0; i < 3; ++i) s.axes[i] = g.friction[i] * s.next[kNormal];
  const LaneMask inside = insideEllipsoid(z[1], z[2], z[3], s.axes[0], s.axes[1], s.axes[2]);
  for (int row = 1; row < 4; ++row) s.next[row] = inside ? z[row] : 0.0;
  s.outside = s.next[kNormal] > 0.0 && !inside;
  const LanePack volume = s.axes[0] * s.axes[1] * s.axes[2];
  s.together = s.outside && volume * volume > 0.0 && volume * volume <= std::numeric_limits<double>::max();
  s.lanesTogether = 0;
  if (!r.isDiagonal()) return;
  s.lanesTogether = std::popcount(ellipsoid_search::laneBits(s.together));
  for (int i = 0; i < 3; ++i) {  // lanes not searched get a harmless outside point of the unit ball
    s.scaledZ[i] = s.together ? z[1 + i] * rFactors.frictionMetricSqrt[i] : 2.0;
    s.scaledAxes[i] = s.together ? s.axes[i] * rFactors.frictionMetricSqrt[i] : 1.0;
  }
}

// The lanes to search, gathered from the groups of a run into consecutive lanes (see searchRun),
// and where each came from.
struct ProxGaussSeidel::CompactLanes : gathered_search::GatheredLanes {
  static_assert(kCapacity >= kMaxRun * kGroupWidth, "room for every lane of a run");
  UpdateState* state[kCapacity];
  int lane[kCapacity];
};

// The closest-point searches of a run of independent groups (kMaxRun at most), for the outside
// lanes that the vector search may take (beginUpdate's `together`). A group alone with two lanes
// or more to search searches them in place. Otherwise the lanes of the run are gathered into
// consecutive lanes and searched sixteen, eight or four at a time (searchGatheredLanes), or, a
// single lane, by the scalar search (a vector search costs four lanes' worth for one).
// A search is a chain of dependent divisions and square roots, three or four evaluations long; the
// more lanes side by side, the more of that chain is shared (docs/benchmarks.md). Left in their
// groups, the lanes inside the ellipsoid, separating or padding would each take a vector lane,
// and often about half the lanes are inside. Each lane's search depends on its own values only, so
// the results are those of searching every lane alone.
[[gnu::always_inline]] inline void ProxGaussSeidel::searchRun(UpdateState (&states)[kMaxRun], int run, bool spheroid,
                                                               CompactLanes& lanes) {
  if (run == 1 && states[0].lanesTogether >= 2) {
    UpdateState& s = states[0];
    LanePack x[3];
    gathered_search::projectOutsidePoints(s.scaledZ, s.scaledAxes, s.together, x, s.z + 1, spheroid);
    for (int i = 0; i < 3; ++i) s.next[1 + i] = s.together ? x[i] : s.next[1 + i];
    s.outside = s.outside && !s.together;
    return;
  }
  int count = 0;
  for (int j = 0; j < run; ++j) {
    UpdateState& s = states[j];
    if (s.lanesTogether == 0) continue;
    for (int l = 0; l < kGroupWidth; ++l) {
      if (!s.together[l]) continue;
      for (int i = 0; i < 3; ++i) {
        lanes.scaledZ[i][count] = s.scaledZ[i][l];
        lanes.scaledAxes[i][count] = s.scaledAxes[i][l];
        lanes.z[i][count] = s.z[1 + i][l];
      }
      lanes.state[count] = &s;
      lanes.lane[count++] = l;
    }
    s.outside = s.outside && !s.together;
  }
  lanes.count = count;
  if (count == 1) {  // scalar: a vector search's divisions and square roots would cost four lanes' worth
    double scaledZ[3], scaledAxes[3], z[3], x[3];
    for (int i = 0; i < 3; ++i) scaledZ[i] = lanes.scaledZ[i][0], scaledAxes[i] = lanes.scaledAxes[i][0], z[i] = lanes.z[i][0];
    gathered_search::projectOutsidePoints(scaledZ, scaledAxes, true, x, z, spheroid);
    for (int i = 0; i < 3; ++i) lanes.x[i][0] = x[i];
  } else if (count > 1) {
    gathered_search::searchGatheredLanes(lanes, spheroid);
  }
  for (int c = 0; c < count; ++c)
    for (int i = 0; i < 3; ++i) lanes.state[c]->next[1 + i][lanes.lane[c]] = lanes.x[i][c];
}

// Alg. 2, lines 8-9, after searchRun: the lanes still outside (those the vector search does not
// take: Blocked, flattened ellipsoids, extreme magnitudes) one by one, then
// w += M^-1 J^T (lambda^{k+1} - lambda^k) (eq. 26); merit := max(merit, the lanes' merit), lane by lane.
[[gnu::always_inline]] inline void ProxGaussSeidel::finishUpdate(const ContactGroup& g, const GroupLambda& lambda,
                                                                  GroupLambda& nextLambda, double* w, const RFactors& r,
                                                                  UpdateState& s, LanePack& merit) {
  for (int l = 0; l < kGroupWidth; ++l) {
    if (!s.outside[l]) continue;
    const Vec3 projected =
        r.projectFriction(g.contact[l], Vec3(s.z[1][l], s.z[2][l], s.z[3][l]), Vec3(s.axes[0][l], s.axes[1][l], s.axes[2][l]));
    for (int row = 1; row < 4; ++row) s.next[row][l] = projected[row - 1];
  }

  GroupLambda delta;
  for (int row = 0; row < 4; ++row) {
    delta[row] = s.next[row] - lambda[row];
    nextLambda[row] = s.next[row];
    const LanePack weighted = (delta[row] < 0.0 ? -delta[row] : delta[row]) * g.diagonalA[row];
    merit = weighted > merit ? weighted : merit;
  }
  addResponse(g, delta, s.wA, s.wB);
  scatterSlots(s.wA, g.offsetA, w);
  scatterSlots(s.wB, g.offsetB, w);
}

// One sweep: the first two parts at the same time (they share no dynamic body: see the class
// comment), then the third. Each part's merit is a maximum, and so is theirs.
double ProxGaussSeidel::updateGroups(const RFactors& r) {
  // Write into the buffer that holds neither the current nor the best iterate.
  int target = 0;
  while (target == currentBuffer_ || target == bestBuffer_) ++target;
  std::array<double, kParts> merits{};
  if (partBegin_[2] > 0) {
    parallelFor(threadPool(), 2, 1, [&](int part, int, int) {
      merits[part] = updateRange(partBegin_[part], partBegin_[part + 1], r, target);
    });
  }
  merits[2] = updateRange(partBegin_[2], partBegin_[3], r, target);
  currentBuffer_ = target;
  return std::max({merits[0], merits[1], merits[2]});
}

// The sweep proper over the groups [begin, end), compiled three times and chosen at load time by
// the CPU: for baseline x86-64 (each LanePack operation is two SSE2 instructions), for AVX2 (one
// instruction, three-operand forms, twice the vector registers) and for x86-64-v4 (AVX-512: the
// same 256-bit operations with 32 vector registers instead of 16; the gathered lanes' searches
// run in 512-bit vectors in gathered_search_avx512.cpp). None contracts a multiply and an add into one FMA (the file is
// compiled with -ffp-contract=off, as x86-64-v4 has FMA), so all round alike and results do not
// depend on the machine: a pile's trace from the AVX2 clone and the 256-bit searches (under
// valgrind, which has no AVX-512) is bit-identical to the x86-64-v4 clone's with the 512-bit ones.
[[gnu::target_clones("arch=x86-64-v4", "avx2", "default")]] double ProxGaussSeidel::updateRange(int begin, int end, const RFactors& r,
                                                                               int target) {
  // Plain pointers, read once: the stores into w may alias any double, members included.
  const ContactGroup* const groups = groups_.data();
  const GroupRFactors* const rFactors = rFactors_.data();
  const std::size_t rFactorStride = rFactorStride_;
  const GroupLambda* const lambda = lambdaBuffers_[currentBuffer_].data();
  GroupLambda* const next = lambdaBuffers_[target].data();
  double* const w = w_.data();
  const std::size_t stop = end;
  const int maxRun = maxRun_;
  const bool spheroid = spheroidSearch_;
  // The merit's maximum lane by lane over the groups, then over the lanes: the same maximum (no NaN
  // enters: a comparison with NaN keeps the old value, as std::max did group by group).
  LanePack merit = {};
  UpdateState states[kMaxRun];
  CompactLanes lanes;
  for (std::size_t i = begin; i < stop;) {
    // Alg. 2, lines 5-9, for a run of groups that share no body (their updates are then
    // independent: doing them together gives the numbers doing them one after the other would).
    int run = 1;
    while (run < maxRun && i + run < stop && groups[i + run].independentBefore >= run) ++run;
    for (int j = 0; j < run; ++j)
      beginUpdate(groups[i + j], rFactors[(i + j) * rFactorStride], lambda[i + j], w, r, states[j]);
    if (r.isDiagonal()) searchRun(states, run, spheroid, lanes);
    for (int j = 0; j < run; ++j) finishUpdate(groups[i + j], lambda[i + j], next[i + j], w, r, states[j], merit);
    i += run;
  }
  double sweepMerit = 0.0;
  for (int l = 0; l < kGroupWidth; ++l) sweepMerit = std::max(sweepMerit, merit[l]);
  return sweepMerit;
}

}  // namespace contactlab
