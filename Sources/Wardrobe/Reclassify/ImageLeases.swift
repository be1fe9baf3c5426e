internal import Catalogue
import Foundation
import Synchronization

/// How several `wardrobe reclassify` processes on one catalogue (on one machine or several)
/// split its images, so that each image is classified once in their split
/// (`ReclassificationSplit`: the same model and recipe, begun since the last such run that
/// finished): before a worker classifies a take of images, this process takes their leases
/// (`CatalogueStore.leaseImages`, through a `LeaseHolder`) and classifies only those it got.
/// An image the split has done is passed over; one another process holds is asked for again
/// after this process's own share, until its holder has classified it or lost the lease
/// (expired, or its process of this host gone, found at once), so the last process standing
/// finishes what a killed one left, and a killed one loses nothing but its leases.
final class ImageLeases: Sendable {
    /// The connection the leases are taken through (and, on a server, the workers' reads).
    let holder: LeaseHolder
    private let images: [ImageID]
    private let split: ReclassificationSplit
    private let doneElsewhere = Atomic<Int>(0)

    /// `images` are the run's items, by their index in it.
    init(location: String, images: [ImageID], split: ReclassificationSplit) throws {
        holder = try LeaseHolder(location: location)
        self.images = images
        self.split = split
    }

    /// The images of `take` (indices of the run's items) this process classifies, and those
    /// to ask for again later. Held images are asked for once more at once when holders
    /// of this host were found gone.
    @Sendable func admit(_ take: [Int]) throws -> RunEngine.Admission {
        var answers = try lease(take)
        let held = take.indices.filter { answers[$0] == .held }
        if !held.isEmpty, try holder.releaseGoneHolders() > 0 {
            for (position, answer) in zip(held, try lease(held.map { take[$0] })) { answers[position] = answer }
        }
        var admission = RunEngine.Admission(admitted: [])
        for (index, answer) in zip(take, answers) {
            switch answer {
            case .taken: admission.admitted.append(index)
            case .held: admission.later.append(index)
            case .done: doneElsewhere.add(1, ordering: .relaxed)
            case .gone: break
            }
        }
        return admission
    }

    private func lease(_ take: [Int]) throws -> [ImageLease] {
        try holder.take { store, until, now in
            try store.leaseImages(take.map { images[$0] }, in: split, owner: holder.owner, until: until, at: now)
        } ?? take.map { _ in .held }
    }

    /// Images another process of the split classified (or an earlier part of it, interrupted).
    var imagesDoneElsewhere: Int { doneElsewhere.load(ordering: .relaxed) }

    /// Gives every lease up (see `LeaseHolder.end`).
    func end() { holder.end() }
}
