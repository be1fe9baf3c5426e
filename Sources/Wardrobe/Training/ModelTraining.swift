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
        /// How many of the held-out photos the parent gets right, before any training.
        case parentHeldOut(accuracy: Double, photos: Int)
    }

    public struct Outcome: Sendable {
        public var result: Trainer.Result
        /// The parent's accuracy on the same held-out photos, before any training: what the
        /// fine-tune's own figure is to be read against.
        public var parentHeldOutAccuracy: Double?
        public var record: TrainingRecord
        public var model: ModelFile
    }

    public func run(events: @escaping @Sendable (Event) -> Void = { _ in }) throws -> Outcome {
        let started = Date()
        let training = try FashionMNIST(split: .train, directory: dataDirectory)
        let test = try FashionMNIST(split: .test, directory: dataDirectory)
        var record = TrainingRecord()
        let architecture = Architecture.clothing()
        var parentNetwork: Network?
        if let choice = parent {
            let parentPath = choice.path
            let bytes = try choice.modelBytes()
            do {
                let parentFile = try ModelFile(bytes: bytes)
                parentNetwork = try Network(architecture: architecture, modelFile: parentFile)
                // What the parent learned from, the fine-tune knows too.
                guard let inherited = TrainingRecord.learnedImages(in: parentFile.description.training) else {
                    throw WardrobeError.model(path: parentPath, reason: "its \(TrainingRecord.Key.learnedImages) is not a list of SHA-256 hashes")
                }
                record.learnedImages = inherited
            } catch let error as WardrobeError {
                throw error
            } catch let error as TrainingError {
                throw WardrobeError.model(path: parentPath, reason: error.description)
            } catch {
                throw WardrobeError.model(path: parentPath, reason: "\(error)")
            }
            record.parentSHA256 = SHA256.digest(bytes).map { String(format: "%02x", $0) }.joined()
        }
        var photoTensors = LabelledTensors()
        var heldOutTensors = LabelledTensors()
        var corrections: CorrectionTrainingSet?
        var excludedPhotos = 0
        if let correctionsCatalogue {
            let loaded = try correctionsCatalogue.correctionTrainingSet(recipe: recipe)
            guard loaded.training.count + loaded.heldOut.count > 0 else {
                throw WardrobeError.invalidArgument("catalogue \(correctionsCatalogue.path): \(loaded.whyEmpty), so there is nothing to learn from")
            }
            record.photoSources.append(loaded.source)
            photoTensors.append(contentsOf: loaded.training)
            heldOutTensors.append(contentsOf: loaded.heldOut)
            corrections = loaded
            record.learnedImages.formUnion(loaded.learnedHashes)
        }
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
            if photos.views > 1 {
                record.photoViews = "\(photos.views) per photo: as taken, and \(photos.views - 1) after \(PhotoVariation().summary)"
            }
            photoTensors.append(contentsOf: loaded.training)
            heldOutTensors.append(contentsOf: loaded.heldOut)
            excludedPhotos = loaded.excluded
        }
        if let corrections {
            let perLabel = corrections.source.perLabel.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            events(.correctionsReady(catalogue: corrections.cataloguePath, training: corrections.training.count,
                                     heldOut: corrections.heldOut.count, failures: corrections.failures,
                                     perLabel: perLabel, excludedPhotos: excludedPhotos))
        }
        if photos != nil || corrections != nil { record.recipe = recipe.identity }
        let configuration = try fitted(self.configuration, fashionImages: training.count, photos: photoTensors.count)
        var parentHeldOutAccuracy: Double?
        if let parentNetwork, !heldOutTensors.isEmpty {
            let logits = Trainer.logits(parentNetwork, photos: heldOutTensors, threads: configuration.threads)
            let accuracy = Trainer.accuracy(logits, of: heldOutTensors)
            parentHeldOutAccuracy = accuracy
            events(.parentHeldOut(accuracy: accuracy, photos: heldOutTensors.count))
        }
        let trainer = Trainer(architecture: architecture, configuration: configuration)
        var result = trainer.train(training: training, test: test, photos: photoTensors,
                                   heldOutPhotos: heldOutTensors, parent: parentNetwork) { progress in
            events(.training(progress))
        }
        if calibrate, !heldOutTensors.isEmpty {
            let heldOut = heldOutTensors
            let logits = Trainer.logits(result.network, photos: heldOut, threads: configuration.threads)
            let temperature = TemperatureScaling.fit(logits: logits, examples: heldOut)
            let before = Self.calibration(logits: logits, of: heldOut, temperature: 1)
            let after = Self.calibration(logits: logits, of: heldOut, temperature: temperature)
            result.network.foldTemperature(temperature)
            record.temperature = temperature
            record.calibrationBefore = before
            record.calibrationAfter = after
            events(.calibrated(temperature: temperature, before: before, after: after))
        } else if calibrate, !photoTensors.isEmpty {
            events(.notCalibrated)
        }
        record.trainingSeconds = Date().timeIntervalSince(started)
        return Outcome(result: result, parentHeldOutAccuracy: parentHeldOutAccuracy, record: record,
                       model: result.modelFile(name: modelName, version: modelVersion, record: record))
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
    func fitted(_ configuration: TrainingConfiguration, fashionImages: Int, photos: Int) throws(WardrobeError)
        -> TrainingConfiguration {
        var c = configuration
        let examples = Trainer(architecture: .clothing(), configuration: c)
            .examplesPerEpoch(fashionImages: fashionImages, photos: photos)
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
