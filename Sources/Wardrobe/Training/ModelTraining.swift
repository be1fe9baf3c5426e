internal import Catalogue
import Files
import Foundation
import Imaging
import Inference
import Training

/// `model train` as a use case: Fashion-MNIST, and labelled photos when
/// given, made into tensors here (Training knows no files of photos); from
/// scratch or fine-tuned from a parent model; calibrated on the held-out
/// photos; written with a record of what it learned from.
///
/// `Training/` owns `model train` as a use case: the training sets made from labelled
/// photos, a person's corrections and unlabelled images, the photo variations, what a
/// fine-tune keeps of its parent (`ModelTraining+Keeping`), and how a fine-tune compares.
public struct ModelTraining: Sendable {
    public struct Photos: Sendable {
        public var directory: String
        public var map: PhotoLabelMap
        /// Use only the first N training photos in the set's fixed order.
        public var limit: Int?
        /// Prepare each training photo this many times, varied before prep (`PhotoVariation`).
        public var views: Int

        public init(directory: String, map: PhotoLabelMap, limit: Int? = nil, views: Int = 1) {
            self.directory = directory
            self.map = map
            self.limit = limit
            self.views = views
        }
    }

    public static let defaultDataDirectory = FashionMNIST.defaultDirectory
    public static let defaultEpochs = TrainingConfiguration().epochs

    /// Fashion-MNIST's .gz files.
    public var dataDirectory: String
    public var photos: Photos?
    /// A catalogue whose labelled and confirmed images are learned from (`--corrections`).
    public var correctionsCatalogue: OpenCatalogue?
    /// The recipe photos are prepared with, recorded as the model's.
    public var recipe: any PrepRecipe = PrepRecipes.default
    /// The model to fine-tune, when given: a file, or the model a catalogue
    /// uses (its bytes already read when it is an adopted model's copy).
    public var parent: ModelChoice?
    public var configuration: TrainingConfiguration
    /// Fit a temperature on the held-out photos and fold it into the last layer.
    public var calibrate = true
    /// How a fine-tune keeps what its parent knew (stated defaults).
    public var keeping = Keeping()
    /// The bundled model's file, where a parent's rehearsal may be found.
    public var bundledModel: String?
    /// The name and version the model file gives itself, shown by `model info`,
    /// `model list` and every run it makes; catalogues tell models apart by hash.
    public var modelName = "clothing"
    public var modelVersion = "1.0"

    /// Nil keeps the default: the trainer's, or with `parent` its
    /// fine-tuning schedule. A `limit` makes a quick trial: it caps the
    /// training images, the validation and test images at as many, the batch
    /// at as many, and the default threads at as many. `threads` is applied
    /// after those rules (`run` refuses more threads than examples).
    public init(dataDirectory: String?, epochs: Int?, seed: UInt64?, limit: Int?, threads: Int?,
                parent: ModelChoice? = nil, learningRate: Float? = nil, fashionImages: Int? = nil) {
        var configuration = parent == nil ? TrainingConfiguration() : .fineTuning()
        if let epochs { configuration.epochs = epochs }
        if let seed { configuration.seed = seed }
        if let learningRate { configuration.peakLearningRate = learningRate }
        if let fashionImages { configuration.trainingLimit = fashionImages }
        if let limit {
            configuration.trainingLimit = limit
            configuration.validationCount = min(configuration.validationCount, limit)
            configuration.testLimit = limit
            configuration.batchSize = min(configuration.batchSize, max(limit, 1))
            configuration.threads = min(configuration.threads, max(limit, 1))
        }
        if let threads { configuration.threads = threads }
        self.dataDirectory = dataDirectory ?? Self.defaultDataDirectory
        self.parent = parent
        self.configuration = configuration
    }

    public typealias Configuration = TrainingConfiguration
    public typealias Progress = TrainingProgress

    public enum Event: Sendable {
        case preparingPhotos(done: Int, total: Int)
        /// Folders the map gives labels that are not under the photo folder (nothing is learned from them).
        case mappedFoldersAbsent(directory: String, folders: [String])
        case photosReady(training: Int, heldOut: Int, failures: [PhotoTrainingSet.Failure], perFolder: [String])
        /// `excludedPhotos`: folder photos left to the person's label, being in the catalogue.
        case correctionsReady(catalogue: String, training: Int, heldOut: Int, failures: [PhotoTrainingSet.Failure],
                              perLabel: [String], excludedPhotos: Int)
        case training(TrainingProgress)
        case calibrated(temperature: Float, before: CalibrationReport, after: CalibrationReport)
        /// Photos or corrections were learned from, but none was held out to fit a temperature on.
        case notCalibrated
        /// How many of the held-out photos the parent gets right, before any training, given them
        /// prepared as the new model is; `parentRecipe` when the parent records another recipe.
        case parentHeldOut(accuracy: Double, photos: Int, parentRecipe: String?, given: String)
        /// The parent's rehearsal file, learned again beside the new examples.
        case rehearsing(path: String, learned: Int, heldOut: Int, recipe: String)
        case rehearsalRecipeDiffers(rehearsal: String, training: String)
        /// The parent has no rehearsal to learn again, and why; `recorded` when it records one
        /// (a file lost, swapped or damaged: what the parent learned may be forgotten).
        case noRehearsal(reason: String, recorded: Bool)
        /// The parent's answers on `images` of the `available` images nobody labelled: what the new
        /// model's changes are measured against, and, if `learned`, soft targets.
        case keepingParent(images: Int, available: Int, fromStoredLogits: Int, learned: Bool,
                           failures: [PhotoTrainingSet.Failure])
        /// Too few held-out labelled photos to fit a temperature on: the parent's stays.
        case parentTemperatureKept(heldOut: Int, minimum: Int)
        /// The rehearsal's held-out photos (never learned by either model), right before and after.
        case rehearsalHeldOut(parent: Double, new: Double, photos: Int)
    }

    /// The parent's and the new model's labels on the images nobody labelled
    /// that the fine-tune prepared (a sample of at most `Keeping.unlabelledLimit`
    /// of the `available` ones), in one order.
    public struct UnlabelledLabels: Sendable, Equatable {
        public var parent: [Int]
        public var new: [Int]
        public var available: Int
        /// Sampled images whose thumbnails could not be prepared: not in `parent` or `new`.
        public var failed = 0
    }

    /// How many of the held-out photos of the parent's rehearsal each model gets right.
    public struct HeldOutComparison: Sendable, Equatable {
        public var parent: Double
        public var new: Double
        public var photos: Int
    }

    public struct Outcome: Sendable {
        public var result: Trainer.Result
        /// The parent's accuracy on the same held-out photos, before any training: what the
        /// fine-tune's own figure is to be read against.
        public var parentHeldOutAccuracy: Double?
        /// The recipe the parent records when it is not the one the held-out photos were prepared
        /// with: its accuracy above is then not what it does in a catalogue, and is said so.
        public var parentRecipeDiffers: String?
        public var record: TrainingRecord
        public var model: ModelFile
        /// The rehearsal to write beside the model (`writeRehearsal`): when it learned from folders of photos.
        public var rehearsal: Rehearsal?
        /// `rehearsal` serialized, once: the record holds its SHA-256.
        public var rehearsalFile: [UInt8]?
        public var unlabelled: UnlabelledLabels?
        public var rehearsalHeldOut: HeldOutComparison?
    }

    public func run(events: @escaping @Sendable (Event) -> Void = { _ in }) throws -> Outcome {
        try Self.checkAddressSpace()
        let started = Date()
        let training = try FashionMNIST(split: .train, directory: dataDirectory)
        let test = try FashionMNIST(split: .test, directory: dataDirectory)
        var record = TrainingRecord()
        let architecture = Architecture.clothing()
        var parent: (network: Network, sha256: String, training: [String: String], path: String)?
        if let choice = self.parent {
            let bytes = try choice.modelBytes()
            do {
                let file = try ModelFile(bytes: bytes)
                parent = (try Network(architecture: architecture, modelFile: file),
                          SHA256Digest.hex(SHA256.digest(bytes)), file.description.training,
                          choice.path)
                // What the parent learned from, the fine-tune knows too.
                guard let inherited = TrainingMetadata.learnedImages(in: file.description.training,
                                                                      digests: file.learnedImageDigests) else {
                    throw WardrobeError.model(path: choice.path, reason: "its \(TrainingMetadata.Key.learnedImages) is not a list of SHA-256 hashes")
                }
                record.learnedImages = inherited
            } catch let error as WardrobeError {
                throw error
            } catch let error as TrainingError {
                throw WardrobeError.model(path: choice.path, reason: error.description)
            } catch {
                throw WardrobeError.model(path: choice.path, reason: "\(error)")
            }
            record.parentSHA256 = parent?.sha256
        }
        // How the parent sees images, as every command runs it: the recipe it records.
        let parentRecipe = try parent.map { try WardrobeSetup.recipe(recordedBy: $0.training, modelPath: $0.path) }
        // The parent's rehearsal: the photos it learned from, learned again beside what is new.
        var rehearsal: Rehearsal?
        if let parent {
            switch Self.rehearsal(ofParent: parent.path, record: parent.training, bundledModel: bundledModel) {
            case .found(let found, let path, _) where found.learned.isEmpty && found.heldOut.isEmpty:
                // A file of no photos: 'rehearsing the parent's 0 photos', and a record saying it
                // rehearsed them, balanced, as a share of the draws.
                events(.noRehearsal(reason: "\(path) holds no photos", recorded: parent.training[TrainingMetadata.Key.rehearsalSHA256] != nil))
            case .found(let found, let path, let sha256):
                rehearsal = found
                record.rehearsalSHA256 = sha256
                record.rehearsalPath = URL(fileURLWithPath: path).standardizedFileURL.path
                events(.rehearsing(path: path, learned: found.learned.count, heldOut: found.heldOut.count,
                                   recipe: found.recipe))
                if found.recipe != recipe.identity {
                    events(.rehearsalRecipeDiffers(rehearsal: found.recipe, training: recipe.identity))
                }
            case .none(let reason):
                events(.noRehearsal(reason: reason, recorded: parent.training[TrainingMetadata.Key.rehearsalSHA256] != nil))
            }
        }
        var corrections: CorrectionTrainingSet?
        var unlabelled = UnlabelledTrainingSet()
        if let correctionsCatalogue {
            let loaded = try correctionsCatalogue.correctionTrainingSet(recipe: recipe)
            // Held-out examples alone teach nothing; with --photos those are learned, and the
            // held-out ones still measure the model.
            guard loaded.training.count > 0 || (photos != nil && loaded.heldOut.count > 0) else {
                throw WardrobeError.invalidArgument("catalogue \(correctionsCatalogue.path): \(loaded.whyEmpty), so there is nothing to learn from")
            }
            record.photoSources.append(loaded.source)
            corrections = loaded
            record.learnedImages.formUnion(loaded.learnedHashes)
            if let parent, let parentRecipe, keeping.unlabelledLimit > 0 {
                unlabelled = try correctionsCatalogue.unlabelledTrainingSet(recipe: recipe,
                                                                           parentRecipe: parentRecipe,
                                                                           parent: parent.network,
                                                                           parentSHA256: parent.sha256,
                                                       temperature: keeping.distillationTemperature,
                                                       limit: keeping.unlabelledLimit, seed: configuration.seed,
                                                       threads: configuration.threads)
                if unlabelled.available > 0 {
                    events(.keepingParent(images: unlabelled.targets.count, available: unlabelled.available,
                                          fromStoredLogits: unlabelled.fromStoredLogits,
                                          learned: keeping.softTargetShare > 0, failures: unlabelled.failures))
                }
            }
        }
        var folderPhotos: PhotoTrainingSet?
        if let photos {
            let absent = photos.map.absentFolders(under: photos.directory)
            if !absent.isEmpty { events(.mappedFoldersAbsent(directory: photos.directory, folders: absent)) }
            let loaded = try PhotoTrainingSet(directory: photos.directory, map: photos.map, recipe: recipe,
                                              limit: photos.limit, excluding: corrections?.hashes ?? [],
                                              views: photos.views, seed: configuration.seed) { done, total in
                events(.preparingPhotos(done: done, total: total))
            }
            events(.photosReady(training: loaded.photos.count, heldOut: loaded.heldOut.count, failures: loaded.failures,
                                perFolder: loaded.perFolder.map { "\($0.folder) \($0.photos)" }))
            record.photoSources.append(loaded.source)
            record.learnedImages.formUnion(loaded.learnedHashes)
            if photos.views > 1 {
                record.photoViews = "\(photos.views) per photo: as taken, and \(photos.views - 1) after \(PhotoVariation().summary)"
            }
            folderPhotos = loaded
        }
        if let corrections {
            let perLabel = corrections.source.perLabel.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            events(.correctionsReady(catalogue: corrections.cataloguePath, training: corrections.training.count,
                                     heldOut: corrections.heldOut.count, failures: corrections.failures,
                                     perLabel: perLabel, excludedPhotos: folderPhotos?.excluded ?? 0))
        }
        if folderPhotos != nil || corrections != nil { record.recipe = recipe.identity }

        // Photos: the person's examples first (weighed, balanced), then the folders' and the rehearsal's.
        var photoTensors = corrections?.training ?? LabelledTensors()
        var others = folderPhotos?.training ?? LabelledTensors()
        if let rehearsal { others.append(contentsOf: rehearsal.learned) }
        let weights = Self.photoWeights(person: photoTensors, others: others, rehearsed: rehearsal?.learned.isEmpty == false,
                                        keeping: keeping)
        photoTensors.append(contentsOf: others)
        var heldOutTensors = corrections?.heldOut ?? LabelledTensors()
        if let folderPhotos { heldOutTensors.append(contentsOf: folderPhotos.heldOut) }

        var configuration = self.configuration
        if parent != nil, corrections != nil, folderPhotos == nil {
            configuration.fixedNormalization = keeping.fixedNormalization
        }
        let softTargets = keeping.softTargetShare > 0 ? unlabelled.targets : SoftTargets()
        if !softTargets.isEmpty {
            configuration.softTargetShare = keeping.softTargetShare
            configuration.distillationTemperature = keeping.distillationTemperature
        }
        configuration = try fitted(configuration, fashionImages: training.count, photos: photoTensors.count,
                                   softTargets: softTargets.count)
        record.keeping = keepingSummary(rehearsal: rehearsal, unlabelled: unlabelled, weighted: weights != nil,
                                        configuration: configuration)
        var parentHeldOutAccuracy: Double?
        var parentRecipeDiffers: String?
        if let parent, !heldOutTensors.isEmpty {
            let logits = Trainer.logits(parent.network, photos: heldOutTensors, threads: configuration.threads)
            let accuracy = Trainer.accuracy(logits, of: heldOutTensors)
            parentHeldOutAccuracy = accuracy
            parentRecipeDiffers = parentRecipe.map(\.identity).flatMap { $0 == recipe.identity ? nil : $0 }
            events(.parentHeldOut(accuracy: accuracy, photos: heldOutTensors.count, parentRecipe: parentRecipeDiffers,
                                  given: recipe.identity))
        }
        let trainer = Trainer(architecture: architecture, configuration: configuration)
        var result = trainer.train(training: training, test: test, photos: photoTensors, photoWeights: weights,
                                   softTargets: softTargets, heldOutPhotos: heldOutTensors,
                                   parent: parent?.network) { progress in
            events(.training(progress))
        }
        // Calibrated on every labelled photo neither model learned from: the rehearsal's
        // held-out photos beside the held-out corrections and folder photos.
        var calibrationSet = heldOutTensors
        if let rehearsal { calibrationSet.append(contentsOf: rehearsal.heldOut) }
        if calibrate, calibrationSet.count >= keeping.minimumCalibrationExamples || (parent == nil && !calibrationSet.isEmpty) {
            let logits = Trainer.logits(result.network, photos: calibrationSet, threads: configuration.threads)
            let temperature = TemperatureScaling.fit(logits: logits, examples: calibrationSet)
            let before = Self.calibration(logits: logits, of: calibrationSet, temperature: 1)
            let after = Self.calibration(logits: logits, of: calibrationSet, temperature: temperature)
            result.network.foldTemperature(temperature)
            record.temperature = temperature
            record.calibrationBefore = before
            record.calibrationAfter = after
            events(.calibrated(temperature: temperature, before: before, after: after))
        } else if calibrate, !calibrationSet.isEmpty {
            events(.parentTemperatureKept(heldOut: calibrationSet.count, minimum: keeping.minimumCalibrationExamples))
        } else if calibrate, !photoTensors.isEmpty {
            events(.notCalibrated)
        }
        var keptOnRehearsal: (parent: Double, new: Double, photos: Int)?
        if let parent, let rehearsal, !rehearsal.heldOut.isEmpty {
            let before = Trainer.accuracy(Trainer.logits(parent.network, photos: rehearsal.heldOut, threads: configuration.threads),
                                          of: rehearsal.heldOut)
            let after = Trainer.accuracy(Trainer.logits(result.network, photos: rehearsal.heldOut, threads: configuration.threads),
                                         of: rehearsal.heldOut)
            keptOnRehearsal = (before, after, rehearsal.heldOut.count)
            events(.rehearsalHeldOut(parent: before, new: after, photos: rehearsal.heldOut.count))
        }
        // What the new model would change on the images nobody labelled (the sample prepared above).
        var unlabelledLabels: UnlabelledLabels?
        if !unlabelled.targets.isEmpty {
            let logits = Trainer.logits(result.network, tensors: unlabelled.targets.values, threads: configuration.threads)
            unlabelledLabels = UnlabelledLabels(parent: unlabelled.parentLabels,
                                                new: Trainer.argmax(logits, classes: SoftTargets.classes),
                                                available: unlabelled.available, failed: unlabelled.failures.count)
        }
        // A model that learned from photos writes their rehearsal beside itself; one that
        // learned from corrections alone records its parent's, which its own fine-tunes find again.
        var newRehearsal: Rehearsal?
        var rehearsalFile: [UInt8]?
        if let folderPhotos {
            var learned = rehearsal?.learned ?? LabelledTensors()
            learned.append(contentsOf: folderPhotos.photos)
            if let corrections { learned.append(contentsOf: corrections.training) }
            var heldOut = rehearsal?.heldOut ?? LabelledTensors()
            heldOut.append(contentsOf: heldOutTensors)
            newRehearsal = Rehearsal(learned: learned, heldOut: heldOut, recipe: recipe.identity)
            rehearsalFile = newRehearsal!.serialized()
            record.rehearsalSHA256 = SHA256Digest.hex(SHA256.digest(rehearsalFile!))
            record.rehearsalPath = nil
        }
        record.trainingSeconds = Date().timeIntervalSince(started)
        let model = result.modelFile(name: modelName, version: modelVersion, record: record)
        try Self.checkUsable(model)
        return Outcome(result: result, parentHeldOutAccuracy: parentHeldOutAccuracy,
                       parentRecipeDiffers: parentRecipeDiffers, record: record,
                       model: model,
                       rehearsal: newRehearsal, rehearsalFile: rehearsalFile, unlabelled: unlabelledLabels,
                       rehearsalHeldOut: keptOnRehearsal.map { .init(parent: $0.parent, new: $0.new, photos: $0.photos) })
    }

    /// Refuses a model that every command would refuse when it loads (`ClothingClassifier`):
    /// a training that diverged, as one from a parent whose weights were near float32's limit
    /// does in its first step, leaves weights that are NaN or overflow on any image. Such a model
    /// was written and reported with its test accuracy, and every command then refused the file.
    static func checkUsable(_ model: ModelFile) throws(WardrobeError) {
        do {
            _ = try ClothingClassifier(modelBytes: model.serialized(), path: "the trained model")
        } catch {
            guard case .model(_, let reason) = error else { throw error }
            // Said as divergence only when it is one: a header over the reader's limit is not.
            let diverged = !model.tensors.values.allSatisfy { $0.scalars.allSatisfy(\.isFinite) } || reason.contains("finite")
            throw .invalidArgument(diverged
                ? "the training diverged: the model it made cannot be used (\(reason)), so it was not written; "
                    + "train with a lower --learning-rate, or from another model"
                : "the model the training made cannot be used (\(reason)), so it was not written")
        }
    }

    /// Opens the file a trained model will be written to (see `ModelFile.destination`).
    public static func destination(_ path: String, sparing inputs: [OutputFile.Input] = []) throws(WardrobeError) -> OutputFile {
        do {
            return try ModelFile.destination(path, sparing: inputs)
        } catch {
            throw unwritable(error, path: path)
        }
    }

    public static func write(_ model: ModelFile, to destination: OutputFile) throws(WardrobeError) {
        do {
            try model.write(to: destination)
        } catch {
            throw unwritable(error, path: destination.path)
        }
    }

    private static func unwritable(_ error: ModelError, path: String) -> WardrobeError {
        guard case .unwritable(_, let reason) = error else { return .model(path: path, reason: error.description) }
        return .model(path: path, reason: "cannot write: \(reason)")
    }

    /// The trainer checks its configuration only in debug builds (Training is
    /// built unchecked for speed), so a run is made to fit here: a batch no
    /// larger than the examples of an epoch, at least one example per thread.
    func fitted(_ configuration: TrainingConfiguration, fashionImages: Int, photos: Int, softTargets: Int = 0)
        throws(WardrobeError) -> TrainingConfiguration {
        var c = configuration
        let examples = Trainer(architecture: .clothing(), configuration: c)
            .examplesPerEpoch(fashionImages: fashionImages, photos: photos, softTargets: softTargets)
        guard examples > 0 else {
            throw .invalidArgument("nothing to train on: no Fashion-MNIST images (--fashion 0) and no photos")
        }
        guard examples >= c.threads else {
            throw .invalidArgument("\(examples) training examples per epoch cannot be shared by \(c.threads) threads: "
                                   + "pass --threads \(examples) or fewer, or train on more examples")
        }
        c.batchSize = max(min(c.batchSize, examples), c.threads)
        return c
    }

    /// Confidence (top softmax of logits / T) against correctness (an accepted label).
    static func calibration(logits: [Float], of examples: LabelledTensors, temperature: Float) -> CalibrationReport {
        let classes = logits.count / examples.count
        var confidences: [Double] = []
        var correct: [Bool] = []
        for i in 0..<examples.count {
            let classification = Classification(logits: logits[i * classes..<(i + 1) * classes].map { $0 / temperature })
            confidences.append(Double(classification.confidence))
            correct.append(examples.isAccepted(classification.labelIndex, at: i))
        }
        return CalibrationReport(confidences: confidences, correct: correct)
    }
}
