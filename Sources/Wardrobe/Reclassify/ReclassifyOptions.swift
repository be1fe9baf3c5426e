internal import Catalogue
import Foundation
import Imaging

/// What `wardrobe reclassify` was asked to do.
public struct ReclassifyOptions: Sendable {
    /// Which images to re-run (all with a thumbnail when empty): what to hand `Reclassifier.select`.
    var filter: ReclassificationFilter
    public var recipe: any PrepRecipe
    /// Worker threads that decode thumbnails, prepare and classify.
    public var jobs: Int
    /// Classifications per transaction.
    public var batchSize: Int
    /// Classify, report what would change, store nothing.
    public var dryRun: Bool
    /// Name every image whose label changes in the report (`ReclassifyReport.changes`).
    public var listsChanges: Bool

    init(filter: ReclassificationFilter = ReclassificationFilter(), recipe: any PrepRecipe, jobs: Int,
         batchSize: Int = 256, dryRun: Bool = false, listsChanges: Bool = false) {
        self.filter = filter
        self.recipe = recipe
        self.jobs = max(1, jobs)
        self.batchSize = max(1, batchSize)
        self.dryRun = dryRun
        self.listsChanges = listsChanges
    }
}

/// How far a reclassification has got.
public struct ReclassifyProgress: Sendable {
    public var done: Int
    public var total: Int
    public var elapsedSeconds: Double

    public var imagesPerSecond: Double { elapsedSeconds > 0 ? Double(done) / elapsedSeconds : 0 }
    public var secondsLeft: Double? { imagesPerSecond > 0 ? Double(total - done) / imagesPerSecond : nil }
}

/// What a reclassification did (or, with `dryRun`, would do). `--json` prints exactly this.
public struct ReclassifyReport: Sendable, Encodable {
    public struct Transition: Sendable, Encodable, Equatable {
        public var from: String
        public var to: String
        public var count: Int
    }

    public struct Failure: Sendable, Encodable, Equatable {
        public var image: Int64
        public var reason: String
    }

    /// An image whose label changes: where it was last seen, its label before and after,
    /// and the new label's confidence.
    public struct Change: Sendable, Encodable, Equatable {
        public var image: Int64
        /// The image's SHA-256 (lowercase hex): its thumbnail's address in `serve`.
        public var sha256: String
        /// The first recorded path of the image (existing ones first); nil when none is recorded.
        public var path: String?
        public var from: String
        public var to: String
        public var confidence: Double
    }

    /// The new run's id; nil for a dry run, which stores nothing.
    public var run: Int64?
    public var dryRun = false
    public var model = ""
    public var recipe = ""
    /// Images the filters selected.
    public var selected = 0
    /// Images classified again (stored, unless a dry run).
    public var reclassified = 0
    /// Selected images that other processes of this reclassification classified (with the
    /// same model and recipe, at once or in an interrupted part before): not done here.
    public var doneElsewhere = 0
    /// Images whose label differs from their label before.
    public var changed = 0
    /// Of `changed`, images a person has labelled (`none` included): the model's label
    /// changes (in history) but the person's stays and wins, so nothing shown changes;
    /// left out of `changes`.
    public var changedUnderPerson = 0
    /// Images that had no classification before.
    public var firstClassified = 0
    /// Label changes, most frequent first.
    public var transitions: [Transition] = []
    /// Re-run images a person has labelled (`none` included): their labels stay and still win.
    public var corrected = 0
    /// Re-run images a person gave one of the ten labels that the model did
    /// not learn from, and of those how many the new model labels the same:
    /// its agreement with answers it was never taught.
    public var personLabelled = 0
    public var agreesWithPerson = 0
    /// Re-run images whose person label the model learned from: left out of the agreement.
    public var learnedFrom = 0
    /// With `ReclassifyOptions.listsChanges`, every image whose effective label changes (not
    /// those of `changedUnderPerson`), in image order.
    public var changes: [Change]?
    public var failed: [Failure] = []
    public var seconds = 0.0
    public var interrupted = false

    public var imagesPerSecond: Double { seconds > 0 ? Double(reclassified) / seconds : 0 }

    /// Of the images that had a label before, the share that kept it: with the
    /// same model and recipe, how well thumbnails reproduce the stored labels.
    public var sameLabelShare: Double? {
        let compared = reclassified - firstClassified
        return compared > 0 ? Double(compared - changed) / Double(compared) : nil
    }

    enum CodingKeys: String, CodingKey {
        case run, dryRun = "dry_run", model, recipe, selected, reclassified, doneElsewhere = "done_elsewhere", changed
        case changedUnderPerson = "changed_under_person"
        case firstClassified = "first_classified", transitions
        case corrected, personLabelled = "person_labelled", agreesWithPerson = "agrees_with_person"
        case learnedFrom = "learned_from", changes
        case failed, seconds, imagesPerSecond = "images_per_second", sameLabelShare = "same_label_share"
        case interrupted
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(run, forKey: .run)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(model, forKey: .model)
        try container.encode(recipe, forKey: .recipe)
        try container.encode(selected, forKey: .selected)
        try container.encode(reclassified, forKey: .reclassified)
        try container.encode(doneElsewhere, forKey: .doneElsewhere)
        try container.encode(changed, forKey: .changed)
        try container.encode(changedUnderPerson, forKey: .changedUnderPerson)
        try container.encode(firstClassified, forKey: .firstClassified)
        try container.encode(transitions, forKey: .transitions)
        try container.encode(corrected, forKey: .corrected)
        try container.encode(personLabelled, forKey: .personLabelled)
        try container.encode(agreesWithPerson, forKey: .agreesWithPerson)
        try container.encode(learnedFrom, forKey: .learnedFrom)
        try container.encodeIfPresent(changes, forKey: .changes)
        try container.encode(failed, forKey: .failed)
        try container.encode((seconds * 1000).rounded() / 1000, forKey: .seconds)
        try container.encode((imagesPerSecond * 10).rounded() / 10, forKey: .imagesPerSecond)
        try container.encode(sameLabelShare.map(Self.rounded), forKey: .sameLabelShare)
        try container.encode(interrupted, forKey: .interrupted)
    }

    private static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
