#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "solvers/prox/prox_solver.h"

namespace contactlab {

// PROX Gauss-Seidel (paper Alg. 2): contacts one after another, each using the freshest impulses
// through w = M^-1 J^T lambda (the factorization of eqs. 25-26).
//
// Sweep order. Updating a contact reads w of its two bodies and writes it back, so a contact that
// shares a body with the one before it must wait for that update: in assembly order (pair by pair,
// four contacts per box pair) the sweep is one long chain of dependent arithmetic. We visit the
// contacts in groups of up to kGroupWidth that share no dynamic body: each group opens with the
// earliest contact not yet visited and takes the next ones (among kLookahead candidates) that touch
// none of the group's bodies. The updates of one group are independent, so doing them together
// gives the numbers doing them one after another would: it is still Gauss-Seidel, every contact
// using the latest w, in this order instead of assembly order.
//
// The groups are then interleaved: each is visited after groups that share no dynamic body with it
// where possible (interleaveGroups). One group's update is a chain of dependent arithmetic (longer
// with the closest-point search), and the next group's update can start before it ends only if it
// does not read the w this one writes. In packing order consecutive groups nearly always share a
// body (they come from neighbouring contacts), so the sweep ran as one chain; interleaved, the
// processor overlaps the updates of neighbouring groups. The order stays close to assembly
// order; docs/benchmarks.md records its effect on the time and on the sweeps needed to converge.
// A run of up to kMaxRun consecutive groups that share no body with one another is updated
// together (updateRange), so that the closest-point searches of all their outside lanes run in
// full vectors (searchRun).
//
// Two threads. A large problem (by default kSplitFromContacts contacts or more) is split by its dynamic
// bodies' slots at one slot s: the contacts of bodies below s only, those of bodies from s on only,
// and the contacts between the two sets (splitContacts). The sweep visits the first two parts, then
// the third; the first two share no dynamic body, so they run at the same time on the solver's
// thread pool, and since neither reads what the other writes, the numbers are those of visiting
// them one after the other: bit-identical with any number of threads. The split depends on the
// problem alone. The bodies' slots follow the scene's body order, which in the poured scenes
// (funnel, pile) is the pouring order, so the two sets are mostly the bodies below and above a
// height and few contacts join them (docs/benchmarks.md).
//
// Layout. A group's data are stored lane by lane (structure of arrays) in LanePacks, so that each
// step of the contact update is one SIMD operation on all lanes. The lanes of a group that is not
// full are padding: zero data and a zero impulse.
class ProxGaussSeidel final : public ProxSolver {
 public:
  ProxGaussSeidel() : ProxSolver(ProxAlgorithm::GaussSeidel) {}
  // At most `maxRun` (1 to kMaxRun) groups updated together. Runs only batch updates that are
  // independent, so every value gives bit-identical results; tests compare 1 with kMaxRun.
  // Problems of `splitFromContacts` contacts or more are split in two (tests use small ones).
  explicit ProxGaussSeidel(int maxRun, int splitFromContacts = kSplitFromContacts);
  // The most groups updated together, the default (see kIndependentGroups and updateRange).
  static constexpr int kMaxRun = 8;
  // Problems of this many contacts or more are split for two threads (see the class comment).
  static constexpr int kSplitFromContacts = 16384;
  // w = M^-1 J^T lambda of Alg. 2, kept in step with the iterate (also after a roll-back).
  const Eigen::VectorXd* bodySpaceResponse() const override { return &w_; }
  static constexpr int kGroupWidth = 4;
  // kGroupWidth doubles, one per lane (GCC/Clang vector extension); on baseline x86-64 each
  // arithmetic operation on a LanePack is two SSE2 instructions.
  using LanePack = double __attribute__((vector_size(kGroupWidth * sizeof(double))));

 protected:
  void prepare(const ContactProblem& problem, const RFactors& r) override;
  void setIterate(const ContactProblem& problem, const Eigen::VectorXd& lambda) override;
  double sweep(const ContactProblem&, const RFactors& r) override { return updateGroups(r); }
  void keepBestIterate() override;
  void restoreBestIterate(const ContactProblem& problem) override;
  void getIterate(Eigen::VectorXd& lambda) const override;

 private:
  static constexpr int kLookahead = 32;  // contacts not yet visited that a group may pick from
  // interleaveGroups: each position takes, of the next kInterleaveWindow groups not yet placed, the
  // first that shares no dynamic body with the kIndependentGroups groups before it, or else the
  // one that shares none with the most of them. Runs of up to kIndependentGroups + 1 groups are
  // then updated together (updateRange). Seven (runs of eight groups, 32 contacts): a run's outside
  // lanes are then searched sixteen at a time, which shortens the sweep on the benchmark scenes
  // but the wall, whose 82 bricks cannot fill that many disjoint groups (docs/benchmarks.md).
  static constexpr int kIndependentGroups = kMaxRun - 1;
  static constexpr int kInterleaveWindow = 64;
  static constexpr int kZeroSlotSets = kIndependentGroups + 1;  // per part, see prepare
  // Every problem is interleaved: with the 1 mm contact skin (kContactSkin) even the mesh piles,
  // with many contacts per body, sweep faster interleaved (docs/benchmarks.md).

  // One group of contacts in lanes: what the update reads (the ContactBlock fields, transposed).
  // Aligned for AVX loads, whatever the target this header is compiled for.
  struct alignas(kGroupWidth * sizeof(double)) ContactGroup {
    LanePack normal[3], tangentT[3], tangentS[3];  // the frame C = [n t s], one column each
    LanePack armA[3], armB[3];
    LanePack b[4];
    LanePack friction[3];
    LanePack diagonalA[4];  // merit weights (zero in padding lanes)
    // M^-1 of both sides (eq. 59), fixed for the solve: the inverse mass and I_WF^-1, which is
    // symmetric, as six entries (xx, yy, zz, xy, xz, yz); zero for a static side. Filled once per
    // solve instead of gathered from the bodies on every sweep.
    LanePack massA, massB, inertiaA[6], inertiaB[6];
    std::array<int, kGroupWidth> contact;  // contact index, -1 for padding
    // Where each lane's side starts in w_ (6 * slot, as a pointer offset, so that the sweep does no
    // index arithmetic); static sides and padding get a zero slot of their own lane (see prepare).
    std::array<std::ptrdiff_t, kGroupWidth> offsetA;
    std::array<std::ptrdiff_t, kGroupWidth> offsetB;
    // How many of the groups just before it in the sweep (up to kIndependentGroups) share no
    // dynamic body with it: 2 means neither of the two before does.
    int independentBefore = 0;
  };
  // A group's diagonal R_k (Global and Local; Blocked applies its blocks through RFactors), kept
  // apart from ContactGroup: Global's R is one value for every contact, so the sweep reads one
  // entry for all groups (stride 0, as RFactors does) and only Local streams one per group: fewer
  // bytes per group for the sweep to read.
  struct alignas(kGroupWidth * sizeof(double)) GroupRFactors {
    LanePack rDiagonal[4];           // R_k without the back-tracking scale
    LanePack frictionMetricSqrt[3];  // sqrt(G) of the friction rows, G = R_f^-1
  };
  // A group's lambda (n, t, s, tau), zero in padding lanes; aligned like ContactGroup (a bare
  // array of LanePacks gets only 16-byte alignment where AVX is not enabled).
  struct alignas(kGroupWidth * sizeof(double)) GroupLambda : std::array<LanePack, 4> {};
  void formGroups(const ContactProblem& problem);
  void splitContacts(const ContactProblem& problem);
  void packGroups(const std::vector<int>& contacts);
  void interleaveGroups(const ContactProblem& problem, int begin, int end);
  double updateGroups(const RFactors& r);
  double updateRange(int begin, int end, const RFactors& r, int target);
  void setResponseOfCurrentIterate();  // w_ (zeroed, sized) += M^-1 J^T lambda of the current buffer
  static void addResponse(const ContactGroup& group, const GroupLambda& delta, LanePack (&wA)[6], LanePack (&wB)[6]);
  using LaneMask = std::int64_t __attribute__((vector_size(kGroupWidth * sizeof(std::int64_t))));
  struct UpdateState;
  static void beginUpdate(const ContactGroup& group, const GroupRFactors& rFactors, const GroupLambda& lambda,
                          const double* w, const RFactors& r,
                          UpdateState& state);
  // Groups updated together in updateRange: a group shares no body with up to kIndependentGroups
  // before it, so any kIndependentGroups + 1 = kMaxRun consecutive ones can be mutually independent.
  static_assert(kMaxRun <= kZeroSlotSets, "the groups of a run use different zero slots (prepare)");
  struct CompactLanes;
  static void searchRun(UpdateState (&states)[kMaxRun], int run, bool spheroid, CompactLanes& lanes);
  static void finishUpdate(const ContactGroup& group, const GroupLambda& lambda, GroupLambda& next, double* w,
                           const RFactors& r, UpdateState& state, LanePack& merit);

  // The parts of the sweep (see the class comment): the contacts of the lower bodies, of the upper
  // bodies, and between them; an unsplit problem has only the last.
  static constexpr int kParts = 3;
  std::array<std::vector<int>, kParts> contactsOfPart_;  // in assembly order
  std::array<int, kParts + 1> partBegin_{};  // groups_[partBegin_[p], partBegin_[p + 1]) is part p
  std::vector<int> contactsUpToSlot_;  // splitContacts' scratch (prefix counts per slot)
  std::vector<int> contactsFromSlot_;
  std::vector<ContactGroup> groups_;       // the sweep order
  std::vector<GroupRFactors> rFactors_;    // group i's is rFactors_[i * rFactorStride_]
  int rFactorStride_ = 0;                  // 1 for Local; 0 for Global (one for all) and Blocked (unused)
  // Every contact's friction ellipsoid, in the metric of its r-factors, has equal tangential axes
  // (mu_t = mu_s and equal metric entries: always with Global's single R): the closest-point
  // searches then solve the two-term secular equation of a spheroid (ellipsoid_search.h). A
  // property of the whole solve, so that every lane of every search takes the same path and the
  // results do not depend on how the lanes are batched.
  bool spheroidSearch_ = false;
  std::vector<char> grouped_;              // per contact: already in a group
  // Per dynamic body: the last group touching it so far (its index while packing, its position in
  // the sweep while ordering; kNever for none).
  std::vector<int> groupOfSlot_;
  static constexpr int kNever = -(1 << 30);
  // A group as formGroups packs it: its contacts and their dynamic bodies' slots (-1: none), in a
  // few bytes instead of a ContactGroup's 1.4 KB, for the reordering to read and move.
  struct PackedGroup {
    std::array<int, kGroupWidth> contact;
    std::array<int, 2 * kGroupWidth> slots;
  };
  std::vector<PackedGroup> packed_;        // the groups in packing order
  std::vector<int> sweepOrder_;            // the packed groups in the order of the sweep
  std::vector<int> nextUnplaced_;          // interleaveGroups: a list of the packed groups not yet placed
  // The groups depend only on the sequence of (slotA, slotB) over the contacts and on the number
  // of dynamic bodies (the split into parts); a resting scene keeps both from step to step, and
  // then the previous step's groups are reused.
  std::vector<int> groupedSlots_;          // 2 * numContacts: slotA, slotB of the groups' problem
  int groupedNumSlots_ = 0;                // numSlots of the groups' problem
  // Three iterates, one entry per group: the current one, the one with the lowest merit so far and
  // the one the next sweep writes (the sweep reads lambda^k from one and writes lambda^{k+1} to
  // another). Keeping the best iterate is then choosing an index instead of copying every lambda.
  std::array<std::vector<GroupLambda>, 3> lambdaBuffers_;
  int maxRun_ = kMaxRun;
  int splitFromContacts_ = kSplitFromContacts;
  int currentBuffer_ = 0;
  int bestBuffer_ = 0;
};

}  // namespace contactlab
