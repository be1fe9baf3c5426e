internal import Catalogue

/// What a reclassification writes, on the run's writer thread: each new
/// classification, in batches under the run (nothing in a dry run), with
/// running sums of what changed for the report.
struct ReclassifyWriter: RunWriter {
    struct Pair: Hashable { var from: Int; var to: Int }

    let catalogue: any CatalogueStore
    /// Images whose person label the model learned from: left out of its agreement.
    let learned: Set<ImageID>
    /// Keep every changed image for the report (`--changes`).
    let keepsChanges: Bool
    private(set) var reclassified = 0
    private(set) var changed = 0
    /// Of `changed`, images a person has labelled: what anyone sees stays theirs.
    private(set) var changedUnderPerson = 0
    private(set) var firstClassified = 0
    private(set) var transitions: [Pair: Int] = [:]
    /// Re-run images a person gave one of the ten labels and the model did
    /// not learn from, and how many of those the new model labels the same;
    /// and those it learned from.
    private(set) var personLabelled = 0
    private(set) var agreesWithPerson = 0
    private(set) var personLabelledLearned = 0
    private(set) var changes: [(image: ImageID, from: Int, to: Int, confidence: Double)] = []
    private(set) var failed: [ReclassifyReport.Failure] = []
    private var batch: [(image: ImageID, classification: NewClassification)] = []
    private var committed = 0

    init(catalogue: any CatalogueStore, learned: Set<ImageID> = [], keepsChanges: Bool = false) {
        self.catalogue = catalogue
        self.learned = learned
        self.keepsChanges = keepsChanges
    }

    var pending: Int { batch.count }

    var written: RunCounts { RunCounts(classified: committed, failed: failed.count) }

    mutating func take(_ outcome: ReclassifyWork.Outcome, run: RunID?) throws {
        switch outcome.result {
        case .classified(let classification):
            add(before: outcome.candidate, after: classification)
            batch.append((outcome.candidate.image, classification))
        case .failed(let reason):
            failed.append(ReclassifyReport.Failure(image: outcome.candidate.image.rawValue, reason: reason))
        }
    }

    /// One transaction: the batch's classifications and the run's counts.
    mutating func commit(run: RunID?, counts: (RunCounts) -> RunCounts) throws {
        guard !batch.isEmpty else { return }
        if let run {
            let after = RunCounts(classified: committed + batch.count, failed: failed.count)
            try catalogue.writing(run: run) { writes in
                try writes.addClassifications(batch)
                return counts(after)
            }
            committed += batch.count
        }
        batch.removeAll(keepingCapacity: true)
    }

    private mutating func add(before: ReclassificationCandidate, after: NewClassification) {
        reclassified += 1
        // A person's label (not `none`) is the truth the new model is measured against,
        // unless the model was taught it.
        if let person = before.personLabel, person != Catalogue.noneLabel {
            if learned.contains(before.image) {
                personLabelledLearned += 1
            } else {
                personLabelled += 1
                if person == after.label { agreesWithPerson += 1 }
            }
        }
        guard let label = before.label else {
            firstClassified += 1
            return
        }
        if label != after.label {
            changed += 1
            transitions[Pair(from: label, to: after.label), default: 0] += 1
            // A person's label outranks the model's, so such an image looks the same afterwards:
            // counted apart, not listed among the changes a person would look through.
            if before.isCorrected {
                changedUnderPerson += 1
            } else if keepsChanges {
                changes.append((before.image, label, after.label, after.confidence))
            }
        }
    }
}
