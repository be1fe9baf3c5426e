internal import Catalogue
import Foundation
import Imaging

/// The use cases of the server's pages: the gallery, review, an image's
/// thumbnail and tensor, and one act of a person on one image.
extension OpenCatalogue {
    /// A page of the gallery and every label's count, from one snapshot.
    public func galleryPage(_ query: Gallery.Query) throws -> (items: [Gallery.Item], counts: [Int: Int]) {
        try reading { store, _ in
            try store.read {
                (try store.galleryPage(try query.catalogueQuery(in: store)).map(Gallery.Item.init), try store.labelCounts())
            }
        }
    }

    /// True when `id` is an image's id (by id only: never a hash prefix).
    public func hasImage(_ id: Int64) throws -> Bool {
        try reading { store, _ in try store.image(ImageID(id)) != nil }
    }

    /// The image with its current classification; nil if it has none (or is not there).
    public func item(_ id: Int64) throws -> Gallery.Item? {
        try reading { store, _ in try store.currentClassification(of: ImageID(id)).map(Gallery.Item.init) }
    }

    /// Review: the image no person labelled just after (or before) `cursor` in least-sure
    /// order, among those `filter` chooses.
    public func reviewNeighbour(of cursor: Gallery.Cursor?, forward: Bool, among filter: ImageFilter = ImageFilter()) throws
        -> Gallery.Item? {
        if cursor == nil && !forward { return nil }
        var unlabelled = filter
        unlabelled.corrected = false
        return try galleryPage(Gallery.Query(filter: unlabelled, order: forward ? .uncertain : .confident,
                                             after: cursor, limit: 1)).items.first
    }

    /// The stored thumbnail of the image whose SHA-256 is `hex` (lower-case), nil if none is.
    public func thumbnail(sha256 hex: String) throws -> Gallery.Thumbnail? {
        guard let digest = try? SHA256Digest(hex: hex), digest.hex == hex else { return nil }
        guard let bytes = try reading({ store, _ in try store.thumbnail(sha256: digest) }) else { return nil }
        return Gallery.Thumbnail(bytes: bytes, contentType: ImageFormat.sniff(bytes) == .png ? "image/png" : "image/jpeg")
    }

    /// What names the tensor `tensor(of:)` draws (the image's hash and the recipe), known
    /// without drawing it; nil when the image is not there.
    public func tensorTag(of id: Int64) throws -> String? {
        guard let image = try reading({ store, _ in try store.image(ImageID(id)) }) else { return nil }
        return "t-\(image.sha256.hex)-\(try recipe(named: nil, model: nil).identity)"
    }

    /// The 28x28 tensor the model in use sees, drawn from the image's stored thumbnail
    /// through the recipe every command would prepare it with (the rule: the model's
    /// recipe, else `photo`), enlarged 6 times as a PNG; nil when the image is not there
    /// or has no thumbnail.
    public func tensor(of id: Int64) throws -> [UInt8]? {
        guard let thumbnail = try reading({ store, _ in try store.thumbnail(of: ImageID(id)) }) else { return nil }
        let prepared = try ImageProcessor().prepare(thumbnail: thumbnail, recipe: try recipe(named: nil, model: nil))
        return try TensorImage.png(prepared.values, scale: 6)
    }

    /// The recipe `tensor(of:)` draws with.
    public func tensorRecipe() throws -> String { try recipe(named: nil, model: nil).identity }

    /// A page's act on one image (`label`, `confirm`, `clear`), as `wardrobe label` does it,
    /// recorded with `command`: the person's label before and after it and the image after
    /// it, read with the act, one act at a time. The image is named by id only (never a hash
    /// prefix), and one that is not there, or is forgotten by another process while the act
    /// waits for the catalogue's lock, is not found.
    public func label(_ act: Labeller.Act, image id: Int64, command: String) throws -> (change: PersonLabelChange, after: Gallery.Item?) {
        try changing { store in
            let outcome = try record(act, on: [id], in: store, command: command)[0]
            return (outcome, try store.currentClassification(of: ImageID(id)).map(Gallery.Item.init))
        }
    }

    /// A page's act on several images at once (`label`, `confirm`, `clear`), as `wardrobe label`
    /// does it on several ids, in one transaction: each image's person label before and after
    /// it, in the order given, for undo. An id that names no image is not found, and nothing
    /// is changed.
    public func label(_ act: Labeller.Act, images ids: [Int64], command: String) throws -> [PersonLabelChange] {
        try changing { store in try record(act, on: ids, in: store, command: command) }
    }

    private func record(_ act: Labeller.Act, on ids: [Int64], in store: any CatalogueStore, command: String) throws
        -> [PersonLabelChange] {
        do {
            return try Labeller(catalogue: store, command: command).record(act, on: ids.map { ImageID($0) }).map {
                PersonLabelChange(image: $0.image.rawValue, before: $0.personBefore, after: $0.personAfter,
                                  sha256: try store.image($0.image)?.sha256.hex)
            }
        } catch CatalogueError.invalidArgument(let message) {
            throw WardrobeError.invalidArgument(message)
        }
    }

    /// Undoes a page's act: puts back each image's person label as it was before (`before`;
    /// nil: none, so the model's label shows again), one act per label put back. Only where
    /// the act's label still stands: an image labelled again since (in the terminal, in
    /// another tab) keeps its newer label, where Undo wiped it and said it was done, and one
    /// forgotten since is passed over, where it kept the rest of the act from being undone,
    /// and so is one whose id another photo took since (a cleared label was put on it).
    /// Nothing standing is not found (all forgotten) or refused (all labelled again). Each
    /// image once: a list naming one twice says two things of it.
    public func restore(_ changes: [PersonLabelChange], command: String) throws {
        var seen = Set<Int64>()
        for change in changes where !seen.insert(change.image).inserted {
            throw WardrobeError.invalidArgument("image \(change.image) is named twice")
        }
        try changing { store in
            var standing: [PersonLabelChange] = [], forgotten = 0
            for change in changes {
                let image = ImageID(change.image)
                // Gone, or its id now another photo's: forgotten either way.
                guard let record = try store.image(image), change.sha256.map({ $0 == record.sha256.hex }) ?? true else {
                    forgotten += 1
                    continue
                }
                if try store.personLabel(of: image) == change.after {
                    standing.append(change)
                }
            }
            if standing.isEmpty {
                if forgotten == changes.count { throw WardrobeError.notFound("the images of that act") }
                throw WardrobeError.invalidArgument("nothing undone: the images of that act were labelled again since")
            }
            let groups = Dictionary(grouping: standing, by: \.before)
            for (label, images) in groups.sorted(by: { ($0.key ?? -1) < ($1.key ?? -1) }) {
                _ = try record(label.map { .label($0) } ?? .clear, on: images.map(\.image), in: store, command: command)
            }
        }
    }

    /// A person's colour for one image (a palette name; nil takes it back), as `wardrobe colour`
    /// does it, recorded with `command`. By id only, as `label(_:image:command:)`.
    public func setColour(_ colour: String?, image id: Int64, command: String) throws {
        let name = try colour.map { text throws(WardrobeError) in try ColourSetter.name(text) }
        _ = try changing { store in try store.setColour([ImageID(id)], name, command: command) }
    }

    /// The sizes a larger view is made at (its longest side, in pixels): a few, so each is
    /// worth a browser's cache.
    public static let viewSides = [480, 960, 1600]

    /// What making a view of image `id` decodes, at most, in pixels: the photo's stored width
    /// times its height (a JPEG is decoded at a smaller DCT scale when it can); nil when the
    /// image is not there.
    public func viewCost(of id: Int64) throws -> Int? {
        try reading { store, _ in try store.image(ImageID(id)).map { $0.width * $0.height } }
    }

    /// A larger view of image `id`, its longest side at most `side` (one of `viewSides`; never
    /// enlarged), as JPEG: decoded from the first recorded file of the image that still exists
    /// and still has its SHA-256 (a file replaced or changed since is passed over, never shown
    /// as this image), under import's limits, oriented and re-encoded; never the file's own
    /// bytes, and no path comes from the caller. Nil when the image is not there or none of its
    /// files is left as it was imported.
    public func view(of id: Int64, side: Int) throws -> [UInt8]? {
        precondition(OpenCatalogue.viewSides.contains(side), "a view is made at one of the fixed sides")
        let found = try reading { store, _ in
            try store.image(ImageID(id)).map { (sha256: $0.sha256, paths: try store.pathsHere(of: ImageID(id))) }
        }
        guard let found, let bytes = OriginalFile.bytes(of: found.sha256, paths: found.paths) else { return nil }
        let decoded = try ImageProcessor().decoder.decode(bytes, minimumSide: side)
        return try JPEGEncoder(quality: 85).encode(decoded.bitmap.fitted(longestSide: side))
    }
}
