internal import Catalogue
import Foundation
import Imaging

/// `wardrobe reclassify`: runs stored images again through a model and a
/// prep recipe, from their thumbnails (no original file is needed), on
/// worker threads, while this thread adds the new classifications in
/// batches under one new run. Nothing is overwritten: each image's earlier
/// classifications stay in its history, and a person's correction still
/// outranks whatever the run says.
///
/// `Reclassify/` owns `wardrobe reclassify`: the request as a person makes it, the options
/// it resolves to, and its run's work and writer.
public final class Reclassifier {
    let catalogue: any CatalogueStore
    let classifier: ClothingClassifier
    let processor: ImageProcessor

    init(catalogue: any CatalogueStore, classifier: ClothingClassifier, processor: ImageProcessor = ImageProcessor()) {
        self.catalogue = catalogue
        self.classifier = classifier
        self.processor = processor
    }

    /// The images `filter` selects, with their labels before.
    func select(_ filter: ReclassificationFilter) throws -> [ReclassificationCandidate] {
        try catalogue.reclassificationCandidates(filter)
    }

    /// Re-runs `candidates` (from `select`). `progress` is called on this
    /// thread after every chunk of images.
    func run(_ candidates: [ReclassificationCandidate], options: ReclassifyOptions,
                    progress: (ReclassifyProgress) -> Void) throws -> ReclassifyReport {
        try run(candidates, options: options,
                settings: RunEngine.Settings(jobs: options.jobs, batchSize: options.batchSize,
                                             itemsPerTake: ReclassifyWork.imagesPerTake),
                progress: progress)
    }

    /// The same, with the engine's settings given (tests interrupt one run through them).
    func run(_ candidates: [ReclassificationCandidate], options: ReclassifyOptions,
                    settings: RunEngine.Settings,
                    progress: (ReclassifyProgress) -> Void) throws -> ReclassifyReport {
        let start = Date()
        var report = ReclassifyReport()
        report.dryRun = options.dryRun
        report.model = "\(classifier.model.name)@\(classifier.model.version)"
        report.recipe = options.recipe.identity
        report.selected = candidates.count
        report.corrected = candidates.filter(\.isCorrected).count

        // Nothing selected, nothing to record: no empty run in the history.
        let recording = options.dryRun || candidates.isEmpty ? nil : RunEngine.Recording(
            command: "reclassify", model: classifier.model,
            recipe: Recipe(name: options.recipe.name, version: options.recipe.version))
        // Other processes reclassifying with this model and recipe share the images: this one
        // classifies those whose leases it gets.
        var settings = settings
        let leases = try recording.map { recording in
            let split = try catalogue.reclassificationSplit(model: try catalogue.registerModel(recording.model.catalogueModel()),
                                                            recipe: recording.recipe)
            return try ImageLeases(location: catalogue.location, images: candidates.map(\.image), split: split)
        }
        defer { leases?.end() }
        settings.admit = leases?.admit
        settings.leaseHolder = leases?.holder
        let work = ReclassifyWork(classifier: classifier, processor: processor, recipe: options.recipe)
        let learnedHashes = try classifier.model.learnedImageSHA256s()
        var writer = ReclassifyWriter(catalogue: catalogue, learned: try catalogue.imageIDs(withSHA256: learnedHashes),
                                      keepsChanges: options.listsChanges)
        let summary = try RunEngine(catalogue: catalogue, settings: settings).run(
            candidates, work: work, writer: &writer, recording: recording) { done, _ in
            progress(ReclassifyProgress(done: done, total: candidates.count,
                                        elapsedSeconds: Date().timeIntervalSince(start)))
        }

        report.run = summary.run?.rawValue
        report.doneElsewhere = leases?.imagesDoneElsewhere ?? 0
        report.failed = writer.failed
        report.reclassified = writer.reclassified
        report.changed = writer.changed
        report.changedUnderPerson = writer.changedUnderPerson
        report.firstClassified = writer.firstClassified
        report.transitions = writer.transitions.map { pair, count in
            ReclassifyReport.Transition(from: ClothingClassifier.labels[pair.from], to: ClothingClassifier.labels[pair.to],
                                        count: count)
        }.sorted { ($1.count, $0.from, $0.to) < ($0.count, $1.from, $1.to) }
        report.personLabelled = writer.personLabelled
        report.agreesWithPerson = writer.agreesWithPerson
        report.learnedFrom = writer.personLabelledLearned
        if options.listsChanges {
            report.changes = try writer.changes.sorted { $0.image < $1.image }.map { change in
                ReclassifyReport.Change(image: change.image.rawValue, sha256: try catalogue.image(change.image)?.sha256.hex ?? "",
                                        path: try catalogue.paths(of: change.image).first?.path,
                                        from: ClothingClassifier.labels[change.from], to: ClothingClassifier.labels[change.to],
                                        confidence: change.confidence)
            }
        }
        report.interrupted = summary.interrupted
        report.seconds = Date().timeIntervalSince(start)
        return report
    }
}
