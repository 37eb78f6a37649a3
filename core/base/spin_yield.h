// SpinYield: what a thread that has spun on a held lock for a while calls.
//
// On real threads, a yield of the core (the holder may have been
// descheduled: with more threads than cores a spinner could otherwise burn
// its whole time slice); null under cooperative runtimes, where a lock is
// never contended. The runtime supplies it (Runtime::StoreSpinYield) and the
// store's stripe locks call it (core/store/spin_lock.h). Any thread.
#pragma once

namespace augur {

using SpinYield = void (*)();

}  // namespace augur
