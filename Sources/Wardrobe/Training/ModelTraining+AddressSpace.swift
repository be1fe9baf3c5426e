import Foundation

extension ModelTraining {
    /// The address space a training is given at least: about twice the 1.06 GB a fine-tune on
    /// Fashion-MNIST reached (`VmPeak`, one epoch), for photos, a rehearsal and the catalogue's images.
    static let addressSpaceNeeded: UInt64 = 2 << 30

    /// Refuses to start under a limit on address space (`ulimit -v`) below what a training
    /// needs. Under one, a training either stopped with Swift's "failed to allocate" (a crash)
    /// or, where OpenBLAS could not reserve its buffer, retried that for ever with a core busy
    /// (1 GB: hung; 2 GB: trained), after the minutes it had already spent.
    static func checkAddressSpace() throws(WardrobeError) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
              UInt64(limit.rlim_cur) < addressSpaceNeeded else { return }
        throw .system("training needs about \(addressSpaceNeeded >> 30) GB of address space and this process may use "
                      + "\(UInt64(limit.rlim_cur) >> 20) MB (ulimit -v); raise the limit (ulimit -v unlimited) and train again")
    }
}
