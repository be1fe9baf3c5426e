internal import Catalogue
import Files
import Foundation
import Inference
import Training

/// What a fine-tune does so that learning a person's corrections does not
/// break the labels nobody corrected: it keeps the parent's batch norm,
/// rehearses the photos the parent learned from, draws both those and the
/// corrections balanced across labels, and fits a new temperature only on
/// enough held-out photos. It can also
/// learn the parent's answers on the catalogue's images nobody labelled
/// (soft targets), but does not by default: see `softTargetShare`. Each
/// number below is a stated default, chosen with `make bench-learning`'s
/// three ways of reviewing a catalogue (docs/learning-from-corrections.md).
extension ModelTraining {
    public struct Keeping: Sendable, Equatable {
        /// Batch norm keeps the parent's running statistics, scale and shift
        /// (`TrainingConfiguration.fixedNormalization`). A fine-tune's batches
        /// mix photos and Fashion-MNIST unlike the parent's: on bench-learning's
        /// catalogue, re-estimating the statistics alone (at a rate of 0)
        /// changed 91 of 1,354 labels nobody gave. (A fine-tune on folders of
        /// photos learns them: `make model`'s parent has seen no photo.)
        public var fixedNormalization = true
        /// At most this many images nobody labelled are prepared: the
        /// parent's answers on them measure what the new model changes
        /// (and are soft targets when `softTargetShare` is above 0).
        public var unlabelledLimit = UnlabelledTrainingSet.defaultLimit
        /// The share of each epoch's examples that are soft targets. 0: on
        /// the bench, every share tried (0.1 to 0.5, at T = 1 and 2) moved
        /// more labels nobody reviewed than none did (random-200, seed 1, the
        /// person's share 0.35: 25 broken at 0, 31 at 0.1, 42 at 0.2), mostly
        /// towards the labels the parent gives most on the catalogue (T-shirts
        /// became Shirts, sandals Bags).
        public var softTargetShare = 0.0
        public var distillationTemperature: Float = 2
        /// With rehearsed photos beside them, the share of the photo draws
        /// that go to the person's examples (the rest to the rehearsal). On
        /// the bench (seed 1) 0.2 against 0.35 got 5 and 7 more validation
        /// photos right in the random and one-label reviews and 3 fewer in
        /// the wrong-only one.
        public var correctionShare = 0.2
        /// A label's examples are drawn, all told, in proportion to the count
        /// given to this power: at 0.5 a label given 30 times is drawn 3.2 times
        /// as much as one given 3, not 10 times (and each of its examples a
        /// third as often). The rehearsed photos are balanced the same way:
        /// drawn uniformly, the few of a kind (long sleeves) weighed little
        /// against a burst of corrections to another (Coat); balanced, the
        /// bench's three reviews (seed 1) got 3, 2 and -1 more validation
        /// photos right, and random-200 broke 20 labels where it fixed 47.
        /// Capping against the least-given label instead made one stray
        /// correction outweigh dozens of confirmations: on the bench,
        /// T-shirts turned into Shirts (15 broken of 1,145).
        public var balancePower = 0.5
        /// Fewer held-out labelled photos than this fit no temperature: the
        /// parent's stays (16 skewed corrections once gave T = 2.36).
        public var minimumCalibrationExamples = 100

        public init() {}
    }

    /// Where a parent's rehearsal was found, or why none was.
    enum RehearsalLookup {
        case found(Rehearsal, path: String, sha256: String)
        case none(reason: String)
    }

    /// The parent's rehearsal: beside the parent's file, else where the
    /// parent's record says it found its own, else beside the bundled model;
    /// a file found away from the parent must have the SHA-256 its record gives.
    static func rehearsal(ofParent path: String, record: [String: String], bundledModel: String?) -> RehearsalLookup {
        let recordedSHA = record[TrainingMetadata.Key.rehearsalSHA256]
        var problems: [String] = []
        // Files found where the rehearsal was looked for that are not it (swapped, truncated,
        // rewritten): named, where the reason said the rehearsal was "neither beside it".
        var others: [String] = []
        // A link there counts as something there, even one to nothing or a loop of links
        // (`fileExists` follows it): such a rehearsal was said to be 'none beside it'.
        func somethingThere(_ path: String) -> Bool {
            FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        }
        for (candidate, anyFile) in rehearsalCandidates(ofParent: path, record: record, bundledModel: bundledModel)
        where somethingThere(candidate) {
            do {
                let bytes = try RegularFile.read(candidate, maxSize: Rehearsal.maxFileSize)
                let sha = SHA256Digest.hex(SHA256.digest(bytes))
                guard anyFile || sha == recordedSHA else {
                    // The bundled model's own rehearsal is looked at last, and is another file as a rule.
                    if bundledModel.map({ Rehearsal.path(besideModel: $0) }) != candidate {
                        others.append("\(candidate) is another file (SHA-256 \(sha.prefix(12))…)")
                    }
                    continue
                }
                return .found(try Rehearsal(bytes: bytes), path: candidate, sha256: sha)
            } catch let error as TrainingError {
                problems.append("\(candidate): \(error.description)")
            } catch {
                problems.append("\(candidate): \(error)")
            }
        }
        if !problems.isEmpty { return .none(reason: problems.joined(separator: "; ")) }
        if let recordedSHA {
            let found = others.isEmpty ? "" : ": " + others.joined(separator: "; ")
            return .none(reason: "the rehearsal it records (\(recordedSHA.prefix(12))…) is neither beside it, "
                + "nor at \(record[TrainingMetadata.Key.rehearsalPath] ?? "a recorded place"), nor beside the bundled model"
                + found)
        }
        return .none(reason: "it records no rehearsal and none is beside it (\(Rehearsal.path(besideModel: path)))")
    }

    /// Where the parent's rehearsal is looked for, in order, each with whether any file there
    /// will do (beside a parent that records no SHA-256) or only the one the record names.
    static func rehearsalCandidates(ofParent path: String, record: [String: String],
                                    bundledModel: String?) -> [(path: String, anyFile: Bool)] {
        let recordedSHA = record[TrainingMetadata.Key.rehearsalSHA256]
        var candidates = [(Rehearsal.path(besideModel: path), recordedSHA == nil)]
        if recordedSHA != nil {
            if let recorded = record[TrainingMetadata.Key.rehearsalPath] { candidates.append((recorded, false)) }
            if let bundledModel { candidates.append((Rehearsal.path(besideModel: bundledModel), false)) }
        }
        return candidates
    }

    /// The files a fine-tune of `parent` may rehearse from, as inputs that neither the model nor
    /// its rehearsal may be written over: `--out mine` beside a parent `mine.aimodel` wrote its
    /// rehearsal (the parent's photos and the new ones) over the parent's, and the parent's next
    /// fine-tune rehearsed and calibrated on photos the parent never learned from.
    public static func rehearsalInputs(ofParent parent: ModelChoice, bundledModel: String?) -> [OutputFile.Input] {
        let record = (try? ModelFile(bytes: parent.modelBytes()))?.description.training ?? [:]
        return rehearsalCandidates(ofParent: parent.path, record: record, bundledModel: bundledModel).map {
            OutputFile.Input(path: $0.path, role: "the rehearsal of the model being fine-tuned")
        }
    }

    /// One draw weight per photo of `[person's examples] + [other photos]`:
    /// the person's balanced across labels (see `balancePower`). With
    /// rehearsed photos among the others, the others are balanced the same
    /// way and the person's take `correctionShare` of all draws; else each
    /// photo weighs 1 on average as before. Nil when all weights would be equal.
    static func photoWeights(person: LabelledTensors, others: LabelledTensors, rehearsed: Bool,
                             keeping: Keeping) -> [Double]? {
        guard !person.isEmpty else { return nil }
        let personWeights = labelBalanced(person, power: keeping.balancePower)
        let all: [Double]
        if rehearsed && !others.isEmpty {
            // Each side weighs 1 per photo on average; then the person's side is scaled to its share.
            let personMass = keeping.correctionShare / (1 - keeping.correctionShare) * Double(others.count)
            all = personWeights.map { $0 / Double(person.count) * personMass }
                + labelBalanced(others, power: keeping.balancePower)
        } else {
            all = personWeights + [Double](repeating: 1, count: others.count)
        }
        return all.allSatisfy({ abs($0 - 1) < 1e-9 }) ? nil : all
    }

    /// One weight per example, 1 on average, so that a label's examples
    /// (a set of accepted labels counts as one label) are drawn, all told,
    /// in proportion to their count to `power`.
    static func labelBalanced(_ tensors: LabelledTensors, power: Double) -> [Double] {
        var counts: [UInt64: Int] = [:]
        for i in 0..<tensors.count { counts[tensors.accepted[i], default: 0] += 1 }
        let weights = (0..<tensors.count).map { i in
            let count = Double(counts[tensors.accepted[i]]!)
            return pow(count, power) / count
        }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total * Double(tensors.count) }
    }

    /// `model info`'s line on how the fine-tune kept its parent.
    func keepingSummary(rehearsal: Rehearsal?, unlabelled: UnlabelledTrainingSet, weighted: Bool,
                                configuration c: TrainingConfiguration) -> String? {
        guard parent != nil else { return nil }
        var parts: [String] = []
        if c.fixedNormalization { parts.append("the parent's batch-norm statistics, scales and shifts kept") }
        // A rehearsal of held-out photos alone is calibrated on, not rehearsed: its photos were
        // said 'balanced by label' and 20% of the draws, where the person's were all of them.
        let rehearsed = rehearsal.flatMap { $0.learned.isEmpty ? nil : $0 }
        if let rehearsed {
            parts.append("rehearsed the parent's \(rehearsed.learned.count) photos (\(rehearsed.recipe))" + (weighted ? ", balanced by label" : ""))
        } else {
            parts.append("no rehearsal of the parent's photos")
        }
        if !unlabelled.targets.isEmpty, c.softTargetShare > 0 {
            parts.append(String(format: "the parent's answers kept on %d of %d catalogue images nobody labelled "
                + "(soft targets at T = %.1f, %.0f%% of each epoch)", unlabelled.targets.count, unlabelled.available,
                c.distillationTemperature, c.softTargetShare * 100))
        }
        if weighted {
            parts.append(String(format: "the person's examples balanced (a label drawn in proportion to its count to the power %.1f)",
                                keeping.balancePower)
                + (rehearsed == nil ? "" : String(format: ", %.0f%% of the photo draws", keeping.correctionShare * 100)))
        }
        return parts.joined(separator: "; ")
    }

    /// Checks now that the rehearsal of a model to be written at `modelPath` can be written
    /// there without replacing any of `inputs` (as `destination` checks the model's own path),
    /// so a training of minutes does not end in that refusal.
    public static func checkRehearsalDestination(besideModel modelPath: String,
                                                 sparing inputs: [OutputFile.Input]) throws(WardrobeError) {
        let path = rehearsalPath(besideModel: modelPath)
        do {
            _ = try OutputFile(path: path, sparing: inputs)
        } catch {
            throw .model(path: path, reason: "cannot write the rehearsal: \(error.reason)")
        }
    }

    /// Where the rehearsal of the model at `modelPath` is written and looked for.
    public static func rehearsalPath(besideModel modelPath: String) -> String { Rehearsal.path(besideModel: modelPath) }

    /// Writes a rehearsal file (`Rehearsal.serialized()`, as `Outcome.rehearsalFile` holds it)
    /// beside the model at `modelPath` (`Rehearsal.path(besideModel:)`), whole or not at all, as
    /// the model is written.
    public static func writeRehearsal(_ file: [UInt8], besideModel modelPath: String,
                                      sparing inputs: [OutputFile.Input] = []) throws(WardrobeError) {
        let path = rehearsalPath(besideModel: modelPath)
        do {
            let destination = try OutputFile(path: path, sparing: inputs)
            try destination.write(file)
            try destination.finish()
        } catch {
            throw .model(path: path, reason: "cannot write the rehearsal: \(error.reason)")
        }
    }
}
