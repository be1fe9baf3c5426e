internal import Catalogue
import Foundation

extension OpenCatalogue {
    /// `duplicates`: the groups of images that are the same photo saved again.
    public func duplicates(rule: DuplicateFinder.Rule = .standard) throws -> DuplicateFinder.Report {
        try reading { store, _ in try DuplicateFinder(catalogue: store, rule: rule).report() }
    }

    /// `similar`, the image page's strip: the `limit` images nearest `image`, nearest first.
    public func similar(to image: ImageReference, limit: Int, rule: SimilarFinder.Rule = .standard) throws -> SimilarFinder.Report {
        try reading { store, _ in try SimilarFinder(catalogue: store, rule: rule).report(image, limit: limit) }
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
