internal import Catalogue
import Files
import Foundation
import Synchronization

/// How several `wardrobe import` processes on one folder and one catalogue split its files,
/// so that each file is read by one of them: before a worker reads a take of files, this
/// process takes their leases in the catalogue (`CatalogueStore.leaseFiles`, through a
/// `LeaseHolder`), and reads only the files it got. A file another process holds, or has
/// stored or failed by now, is passed over; the holder's leases outlive it by at most
/// `LeaseHolder.seconds` (not at all when it was a process of this host, found gone as the
/// run begins), and the next importer to want those files takes them over.
final class FileLeases: Sendable {
    /// The connection the leases are taken through (and, on a server, the workers' reads).
    let holder: LeaseHolder
    private let files: [FoundFile]
    private let passedOver = Atomic<Int>(0)

    /// `files` are the run's items, by their index in it.
    init(location: String, files: [FoundFile]) throws {
        holder = try LeaseHolder(location: location)
        self.files = files
    }

    /// The files of `take` (indices of the run's items) this process may read: those whose
    /// leases it got. The others are passed over for good.
    @Sendable func admit(_ take: [Int]) throws -> RunEngine.Admission {
        let answers = try holder.take { store, until, now in
            try store.leaseFiles(take.map { files[$0].seen }, owner: holder.owner, until: until, at: now)
        } ?? take.map { _ in false }
        let won = zip(take, answers).filter(\.1).map(\.0)
        passedOver.add(take.count - won.count, ordering: .relaxed)
        return RunEngine.Admission(admitted: won)
    }

    /// Files another process held, or had done, when this one came to them.
    var filesPassedOver: Int { passedOver.load(ordering: .relaxed) }

    /// Gives every lease up (see `LeaseHolder.end`).
    func end() { holder.end() }
}
