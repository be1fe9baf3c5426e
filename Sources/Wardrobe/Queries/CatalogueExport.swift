internal import Catalogue
import Foundation

/// `wardrobe export`: the current classification of every image (or, with
/// `all`, every classification ever made) as CSV or JSON, streamed from one
/// snapshot of the catalogue a row at a time: memory stays flat however
/// large the catalogue.
public struct CatalogueExport {
    public static let historyColumns = ["classification", "image", "sha256", "run", "model", "recipe", "label",
                                        "confidence", "classified_at", "logits"]

    let catalogue: any CatalogueStore

    init(catalogue: any CatalogueStore) {
        self.catalogue = catalogue
    }

    /// Writes the export to `sink` in chunks; returns the number of rows. `choosing` (`list`'s
    /// filters) limits it to the images it selects, in id order, each classification of them with `all`.
    @discardableResult
    public func write(format: RowFormat, all: Bool, choosing: ImageListing.Options? = nil,
                      sink: @escaping ([UInt8]) throws -> Void) throws -> Int {
        var rows = 0
        var chosen = choosing ?? ImageListing.Options()
        chosen.order = .id
        try catalogue.read {
            if all {
                let models = try ModelReference.names(in: catalogue)
                let writer = RowWriter(format: format, columns: CatalogueExport.historyColumns, sink: sink)
                // The chosen images' ids (8 bytes each), so the classifications still stream.
                var images: Set<Int64>?
                if choosing != nil {
                    var ids = Set<Int64>()
                    try ImageListing(catalogue: catalogue).forEach(chosen) { ids.insert($0.id) }
                    images = ids
                }
                try catalogue.forEachClassificationWithHash { record, sha256 in
                    if let images, !images.contains(record.image.rawValue) { return }
                    try writer.write([
                        .integer(record.id.rawValue), .integer(record.image.rawValue), .text(sha256.hex),
                        .integer(record.run.rawValue), .text(models[record.model] ?? "model \(record.model)"),
                        .text("\(record.recipe.name)@\(record.recipe.version)"),
                        .text(ClothingClassifier.labels[record.label]), .number(record.confidence),
                        .date(record.classifiedAt), .numbers(record.logits),
                    ])
                    rows += 1
                }
                try writer.finish()
            } else {
                let writer = RowWriter(format: format, columns: ImageListing.Row.columns, sink: sink)
                try ImageListing(catalogue: catalogue).forEach(chosen) { row in
                    try writer.write(row.values)
                    rows += 1
                }
                try writer.finish()
            }
        }
        return rows
    }
}
