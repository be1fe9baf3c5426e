internal import Catalogue
import Foundation

extension OpenCatalogue {
    /// `duplicates`: the groups of images that are the same photo saved again.
    public func duplicates(rule: DuplicateFinder.Rule = .standard) throws -> DuplicateFinder.Report {
        try reading { store, _ in try DuplicateFinder(catalogue: store, rule: rule).report() }
    }

    /// `duplicates --dismiss`: a person says the images are not the same photo; no pair of
    /// them is grouped again. Every image is found before anything is written. The ids, in order.
    public func dismissDuplicates(_ references: [ImageReference], places: [String?] = []) throws -> [Int64] {
        try changing { store in
            let images = try Labeller.resolve(references, places: places, in: store, verb: "dismiss") { _ in nil }
            guard Set(images).count > 1 else {
                throw WardrobeError.invalidArgument("a group to dismiss is of two images or more")
            }
            try store.dismissDuplicates(images, at: Date())
            return Array(Set(images)).sorted().map(\.rawValue)
        }
    }
}
