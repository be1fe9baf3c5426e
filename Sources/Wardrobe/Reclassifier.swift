import Catalogue
import Foundation
import Imaging

/// `wardrobe reclassify`: runs stored images again through a model and a
/// prep recipe, from their thumbnails (no original file is needed), on
/// worker threads, while this thread adds the new classifications in
/// batches under one new run. Nothing is overwritten: each image's earlier
/// classifications stay in its history, and a person's correction still
/// outranks whatever the run says.
public final class Reclassifier {
    let catalogue: Catalogue
    let classifier: ClothingClassifier
    let processor: ImageProcessor

    public init(catalogue: Catalogue, classifier: ClothingClassifier, processor: ImageProcessor = ImageProcessor()) {
        self.catalogue = catalogue
        self.classifier = classifier
        self.processor = processor
    }

    /// The recipe a reclassification uses when none is named: the rule every
    /// command follows (shared/DESIGN.md), the one the model records, else
    /// `photo`. Models do not record one yet, so it is `photo`; what the
    /// catalogue's last run used never matters.
    public static func defaultRecipe(for catalogue: Catalogue) throws -> any PrepRecipe {
        PrepRecipes.default
    }

    /// The images `filter` selects, with their labels before.
    public func select(_ filter: ReclassificationFilter) throws -> [ReclassificationCandidate] {
        try catalogue.reclassificationCandidates(filter)
    }

    /// Re-runs `candidates` (from `select`). `progress` is called on this
    /// thread after every chunk of images.
    public func run(_ candidates: [ReclassificationCandidate], options: ReclassifyOptions,
                    progress: (ReclassifyProgress) -> Void) throws -> ReclassifyReport {
        let start = Date()
        var report = ReclassifyReport()
        report.dryRun = options.dryRun
        report.model = "\(classifier.model.name)@\(classifier.model.version)"
        report.recipe = options.recipe.identity
        report.selected = candidates.count
        report.corrected = candidates.filter(\.isCorrected).count

        var run: RunID?
        // Nothing selected, nothing to record: no empty run in the history.
        if !options.dryRun && !candidates.isEmpty {
            let model = try catalogue.registerModel(classifier.model.catalogueModel())
            run = try catalogue.openRun(command: "reclassify", model: model,
                                        recipe: Recipe(name: options.recipe.name, version: options.recipe.version))
            report.run = run?.rawValue
        }

        let work = ReclassifyWork(candidates: candidates, catalogue: catalogue.path, classifier: classifier,
                                  processor: processor, recipe: options.recipe)
        let chunks = (candidates.count + ReclassifyWork.chunkSize - 1) / ReclassifyWork.chunkSize
        let workers = min(options.jobs, max(1, chunks))
        let queue = BoundedQueue<[ReclassifyWork.Outcome]>(capacity: 4 * workers, producers: workers)
        queue.startProducers { work.drain(into: $0) }

        var tally = Tally()
        var batch: [(image: ImageID, classification: NewClassification)] = []
        func flush() throws {
            guard !batch.isEmpty else { return }
            if let run { try catalogue.addClassifications(batch, run: run) }
            batch.removeAll(keepingCapacity: true)
        }
        var done = 0
        while !queue.isFinished {
            guard let outcomes = queue.pop(timeout: 0.25) else { continue }
            for outcome in outcomes {
                switch outcome.result {
                case .classified(let classification):
                    tally.add(before: outcome.candidate, after: classification)
                    batch.append((outcome.candidate.image, classification))
                case .failed(let reason):
                    report.failed.append(.init(image: outcome.candidate.image.rawValue, reason: reason))
                }
            }
            if batch.count >= options.batchSize { try flush() }
            done += outcomes.count
            progress(ReclassifyProgress(done: done, total: candidates.count,
                                        elapsedSeconds: Date().timeIntervalSince(start)))
        }
        try flush()

        report.reclassified = tally.reclassified
        report.changed = tally.changed
        report.firstClassified = tally.firstClassified
        report.transitions = tally.transitions.map { pair, count in
            ReclassifyReport.Transition(from: ClothingClassifier.labels[pair.from], to: ClothingClassifier.labels[pair.to],
                                        count: count)
        }.sorted { ($1.count, $0.from, $0.to) < ($0.count, $1.from, $1.to) }
        report.personLabelled = tally.personLabelled
        report.agreesWithPerson = tally.agreesWithPerson
        report.interrupted = work.wasInterrupted
        report.seconds = Date().timeIntervalSince(start)
        if let run {
            try catalogue.closeRun(run, counts: RunCounts(seen: candidates.count, classified: tally.reclassified,
                                                          skipped: candidates.count - done, failed: report.failed.count))
        }
        return report
    }

    /// Running sums over the outcomes, for the report.
    private struct Tally {
        struct Pair: Hashable { var from: Int; var to: Int }
        var reclassified = 0
        var changed = 0
        var firstClassified = 0
        var transitions: [Pair: Int] = [:]
        var personLabelled = 0
        var agreesWithPerson = 0

        mutating func add(before: ReclassificationCandidate, after: NewClassification) {
            reclassified += 1
            // A person's label (not `none`) is the truth the new model is measured against.
            if let person = before.personLabel, person != Catalogue.noneLabel {
                personLabelled += 1
                if person == after.label { agreesWithPerson += 1 }
            }
            guard let label = before.label else {
                firstClassified += 1
                return
            }
            if label != after.label {
                changed += 1
                transitions[Pair(from: label, to: after.label), default: 0] += 1
            }
        }
    }
}
