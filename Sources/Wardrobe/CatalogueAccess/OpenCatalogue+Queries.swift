internal import Catalogue
import Foundation

/// The use cases that read: listing, one image's details and history, failures, stats,
/// the catalogue's models, export.
extension OpenCatalogue {
    /// `list`: calls `body` for each image `options` selects, one row in memory at a time.
    public func forEachImage(_ options: ImageListing.Options, _ body: (ImageListing.Row) throws -> Void) throws {
        try reading { store, _ in try ImageListing(catalogue: store).forEach(options, body) }
    }

    /// How many images `options` selects, ignoring its limit and offset.
    public func countImages(_ options: ImageListing.Options) throws -> Int {
        try reading { store, _ in try ImageListing(catalogue: store).count(options) }
    }

    /// `show`, `history`: everything about one image, read in one snapshot.
    public func details(of image: ImageReference) throws -> ImageDetails {
        try reading { store, _ in try ImageDetails(image, in: store) }
    }

    /// `check`: every page and value of the catalogue looked at for damage, without opening
    /// it as a catalogue (see `CatalogueStorage.check`), so that damage where a catalogue's
    /// own checks look cannot keep it from being checked: what is damaged, empty when
    /// nothing is. `progress` is called every fraction of a second with the seconds spent.
    public func check(progress: @escaping (Double) -> Void) throws -> [String] {
        try CatalogueStorage.check(location, digest: SHA256.digest, progress: progress)
    }

    /// `failures`: the files whose latest import failed.
    public func failures() throws -> [FailureListing.Row] {
        try reading { store, _ in try FailureListing.rows(in: store) }
    }

    /// `stats`, the stats page: totals, per label, and how often the model agrees with a person.
    public func summary() throws -> CatalogueSummary {
        try reading { store, cache in try CatalogueSummary(catalogue: store, cache: cache) }
    }

    /// `model list`: the models registered here, and the one commands use without `--model`.
    public func modelListing() throws -> ModelListing {
        let choice = try modelChoice(explicit: nil)
        return try reading { store, _ in try ModelListing(catalogue: store, choice: choice) }
    }

    /// `export`: every image's current classification (or, with `all`, every classification)
    /// as rows, from one snapshot, to `sink`; the number of rows.
    @discardableResult
    public func export(format: RowFormat, all: Bool, choosing: ImageListing.Options? = nil,
                       sink: @escaping ([UInt8]) throws -> Void) throws -> Int {
        try reading { store, _ in
            try CatalogueExport(catalogue: store).write(format: format, all: all, choosing: choosing, sink: sink)
        }
    }

    /// `export --output FILE`: the same, into a new file (see `CatalogueExport.write(format:all:choosing:toFile:)`).
    @discardableResult
    public func export(format: RowFormat, all: Bool, choosing: ImageListing.Options? = nil, toFile path: String) throws -> Int {
        try reading { store, _ in
            try CatalogueExport(catalogue: store).write(format: format, all: all, choosing: choosing, toFile: path)
        }
    }
}
