internal import Catalogue
import Foundation
import Imaging

/// `wardrobe reclassify` as a person asks for it: images named on the command
/// line, filters, and a recipe named or not. `options(in:setup:)` resolves it
/// against a catalogue into what `Reclassifier` runs.
public struct ReclassifyRequest: Sendable {
    /// Only these images (all with a thumbnail when empty).
    public var images: [ImageReference]
    public var label: Int?
    public var confidenceBelow: Double?
    public var importedSince: Date?
    /// The prep recipe's name; nil for the recipe rule's (the one the model
    /// records, else `photo`; never what the catalogue's last run used).
    public var recipe: String?
    public var jobs: Int
    public var dryRun: Bool
    /// Name each image whose label changes in the report.
    public var listsChanges: Bool

    public init(images: [ImageReference] = [], label: Int? = nil, confidenceBelow: Double? = nil,
                importedSince: Date? = nil, recipe: String? = nil, jobs: Int, dryRun: Bool = false,
                listsChanges: Bool = false) {
        self.images = images
        self.label = label
        self.confidenceBelow = confidenceBelow
        self.importedSince = importedSince
        self.recipe = recipe
        self.jobs = jobs
        self.dryRun = dryRun
        self.listsChanges = listsChanges
    }

    /// The recipe (named, else the recipe rule's: the one `model` records,
    /// else `photo`), then the images named, each resolved in `catalogue`: an
    /// unknown image or an ambiguous hash prefix is an error naming it.
    func options(in catalogue: any CatalogueStore, setup: WardrobeSetup, model: ModelIdentity? = nil) throws -> ReclassifyOptions {
        let chosen = try model.map { try setup.recipe(named: recipe, for: $0) } ?? setup.recipe(named: recipe)
        var filter = ReclassificationFilter(label: label, confidenceBelow: confidenceBelow, importedSince: importedSince)
        if !images.isEmpty {
            filter.images = try images.map { try $0.resolve(in: catalogue).id }
        }
        return ReclassifyOptions(filter: filter, recipe: chosen, jobs: jobs, dryRun: dryRun, listsChanges: listsChanges)
    }
}
