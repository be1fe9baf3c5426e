import Files
import Foundation
import Inference
import Observation
import Synchronization

/// The one classifier of a process: the model loaded and specialised once,
/// its function `main` looked up once, then used for every image from any
/// thread. Also carries observable state (`ready`, `result`, `confidence`)
/// for an app that shows the latest classification.
///
/// `Classify/` owns classifying: this classifier and what it says (`Classification`),
/// `wardrobe classify` on files (`FileClassifier` and its run's work and writer), and
/// `wardrobe prep`'s look at the tensor a recipe makes (`PrepPreview`).
@Observable
public final class ClothingClassifier: Sendable {
    /// The contract's labels in index order (Fashion-MNIST's classes).
    public static let labels = ModelContract.labels
    public static let side = ModelContract.side
    public static let pixelsPerImage = ModelContract.valuesPerImage

    /// How many times this process has loaded and specialised the model file
    /// at `path`; tests use it to prove "prepare once".
    public static func preparationCount(forModelAt path: String) -> Int {
        preparations.withLock { $0[path, default: 0] }
    }
    private static let preparations = Mutex<[String: Int]>([:])

    @ObservationIgnored public let model: ModelIdentity
    @ObservationIgnored private let main: CompiledFunction

    /// Observable state, kept behind a lock because classification runs on
    /// many threads; the getters and setters tell Observation by hand.
    @ObservationIgnored private let state = Mutex(DisplayState())
    private struct DisplayState: Sendable {
        var ready = false
        var result: String?
        var confidence: Float?
    }

    public var ready: Bool {
        access(keyPath: \.ready)
        return state.withLock { $0.ready }
    }

    /// The label of the latest classification made through `classify(...)`.
    public var result: String? {
        access(keyPath: \.result)
        return state.withLock { $0.result }
    }

    public var confidence: Float? {
        access(keyPath: \.confidence)
        return state.withLock { $0.confidence }
    }

    /// Loads, checks against the contract and specialises the model at `path`.
    public convenience init(modelAt path: String) throws(WardrobeError) {
        try self.init(modelBytes: Self.readModel(at: path), path: path)
    }

    /// A model file's bytes, as every command reads one: a regular file of at most
    /// `ModelFile.maxFileSize` bytes, or an error naming it with the reason.
    public static func readModel(at path: String) throws(WardrobeError) -> [UInt8] {
        do {
            return try RegularFile.read(path, maxSize: ModelFile.maxFileSize)
        } catch {
            throw .model(path: path, reason: "cannot read: \(error.reason)")
        }
    }

    /// Checks against the contract and specialises a model file's bytes;
    /// `path` names it in messages and records (for a copy a catalogue
    /// keeps, the file it came from).
    public init(modelBytes bytes: [UInt8], path: String) throws(WardrobeError) {
        do {
            let file = try ModelFile(bytes: bytes)
            guard file.description.labels == Self.labels else {
                throw WardrobeError.model(path: path, reason:
                    "labels \(file.description.labels) differ from the contract's \(Self.labels)")
            }
            let compiled = try CompiledModel(file: file, contract: .standard)
            main = try compiled.function(named: "main")
            try Self.probe(main, path: path)
            model = ModelIdentity(path: path, name: compiled.name, version: compiled.version,
                                  sha256: SHA256.digest(bytes), parameterCount: compiled.parameterCount,
                                  labels: compiled.labels, training: compiled.description.training,
                                  learnedImageDigests: file.learnedImageDigests)
        } catch let error as WardrobeError {
            throw error
        } catch let error as ModelError {
            throw .model(path: path, reason: error.description)
        } catch {
            throw .model(path: path, reason: "\(error)")
        }
        Self.preparations.withLock { $0[path, default: 0] += 1 }
        withMutation(keyPath: \.ready) { state.withLock { $0.ready = true } }
    }

    /// A model whose weights overflow float32 gives inf or nan, from which no label follows: such
    /// a model is refused when it loads, with the reason, rather than failing image by image.
    /// Asked of a black and a white image (a millisecond); an overflow only some images reach
    /// fails those images (`Classification.stored`).
    private static func probe(_ main: CompiledFunction, path: String) throws {
        let side = pixelsPerImage
        let images = [Float](repeating: 0, count: side) + [Float](repeating: 1, count: side)
        var logits = [Float](repeating: 0, count: 2 * labels.count)
        try images.withUnsafeBufferPointer { input in
            try logits.withUnsafeMutableBufferPointer { try main.run(input: input, count: 2, output: $0) }
        }
        if let value = logits.first(where: { !$0.isFinite }) {
            throw WardrobeError.model(path: path, reason:
                "its output for a black or a white image is \(value), not a finite number: a weight overflows float32")
        }
    }

    /// Classifies `count` prepared tensors (the contract's input) laid out back to back.
    /// Safe to call from many threads at once.
    public func classify(tensors: UnsafeBufferPointer<Float>, count: Int) -> [Classification] {
        precondition(tensors.count == count * Self.pixelsPerImage, "\(tensors.count) values for \(count) images")
        var logits = [Float](repeating: 0, count: count * Self.labels.count)
        logits.withUnsafeMutableBufferPointer { output in
            // Sizes are checked above, so the runtime cannot refuse the call.
            try! main.run(input: tensors, count: count, output: output)
        }
        let classes = Self.labels.count
        return (0..<count).map { Classification(logits: Array(logits[$0 * classes..<($0 + 1) * classes])) }
    }

    public func classify(tensor: [Float]) -> Classification {
        tensor.withUnsafeBufferPointer { classify(tensors: $0, count: 1) }[0]
    }

    /// Classifies one tensor and publishes the result to observers.
    @discardableResult
    public func classifyAndPublish(tensor: [Float]) -> Classification {
        let classification = classify(tensor: tensor)
        withMutation(keyPath: \.result) {
            withMutation(keyPath: \.confidence) {
                state.withLock {
                    $0.result = classification.label
                    $0.confidence = classification.confidence
                }
            }
        }
        return classification
    }
}

/// Which model a classifier runs: what the catalogue records about it.
public struct ModelIdentity: Sendable, Equatable {
    public var path: String
    public var name: String
    public var version: String
    /// SHA-256 of the model file's bytes.
    public var sha256: [UInt8]
    public var parameterCount: Int
    public var labels: [String]
    public var training: [String: String]
    /// The model file's `learnedImageDigests` (see `learnedImages`).
    public var learnedImageDigests: [UInt8] = []

    /// The prep recipe ("name@version") the model records it was trained for, if any.
    public var recipe: String? { training[TrainingMetadata.Key.recipe] }

    /// The temperature folded into the last layer when the model was calibrated, if any.
    /// A recorded temperature that is not a positive finite number (a file made elsewhere)
    /// is an error naming the model: multiplied into the logits, it made every one NaN.
    public var temperature: Float? {
        get throws(WardrobeError) {
            guard let recorded = training[TrainingMetadata.Key.temperature] else { return nil }
            guard let value = Float(recorded), value.isFinite, value > 0 else {
                throw .model(path: path, reason: "the temperature it records, '\(recorded)', is not a positive number")
            }
            return value
        }
    }

    /// The catalogue images (content hashes) whose person label the model learned
    /// from, its parents' included (`TrainingMetadata.learnedImages`); none when the
    /// file records none. A record that is not a list of hashes is an error naming
    /// the model: what it learned from would be unknown, and every figure about it
    /// would claim too much.
    public var learnedImages: Set<String> {
        get throws(WardrobeError) {
            guard let hashes = TrainingMetadata.learnedImages(in: training, digests: learnedImageDigests) else {
                throw .model(path: path, reason: "its \(TrainingMetadata.Key.learnedImages) is not a list of SHA-256 hashes")
            }
            return hashes
        }
    }
}
