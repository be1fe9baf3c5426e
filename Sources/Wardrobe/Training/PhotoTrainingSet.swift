internal import Catalogue
import Files
import Foundation
import Imaging
import Training

/// Folders of labelled photos made into training tensors, each prepared
/// exactly as `import` prepares it (ImageProcessor: decode once, thumbnail,
/// the recipe run on the thumbnail as stored), so the model learns from what
/// it will be shown.
///
/// About a tenth of the photos are held out, chosen by the SHA-256 of the
/// file's bytes (first byte below 26), so the choice does not depend on
/// names, order, seed or which other photos are present. The rest are
/// ordered by that hash too: a fixed shuffled order in which `limit` takes
/// the first N, as a person labelling photos one by one would add them.
///
/// With `views` above 1, each training photo is prepared that many times:
/// once as it is and the rest after a `PhotoVariation` (framing, exposure),
/// drawn from a generator seeded by the photo's hash and `seed`, so the
/// same photo always gets the same views. Held-out photos are prepared once,
/// as they are.
public struct PhotoTrainingSet: Sendable {
    /// The first hash byte below this holds a photo out: 26/256, about 10%.
    public static let heldOutBelow: UInt8 = 26

    public struct Failure: Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// Every view of every training photo.
    public var training = LabelledTensors()
    /// Each training photo once, as it is.
    public var photos = LabelledTensors()
    public var heldOut = LabelledTensors()
    /// Photos learned from, per folder, in map order (held-out ones not counted).
    public var perFolder: [(folder: String, photos: Int)] = []
    public var failures: [Failure] = []
    /// Photos left out because their content is in `excluding` (a person labelled them in a catalogue).
    public var excluded = 0
    /// The SHA-256 (lowercase hex) of each photo learned from (not the held-out ones): the model
    /// file records them beside the catalogue images it learned from, as a photo imported into a
    /// catalogue keeps its file's hash. Unrecorded, a catalogue holding the folder counted every
    /// such photo as a label the model "did not learn from" in its agreement figures.
    public var learnedHashes: Set<String> = []
    public var directory: String
    public var recipe: String

    /// Prepares every photo of the map's labelled folders under `directory`
    /// ("none" folders are left out) on `threads` threads. Unreadable files
    /// are listed as failures and left out, and so are photos whose SHA-256 is in
    /// `excluding`. `progress(done, total)` after each photo.
    public init(directory: String, map: PhotoLabelMap, recipe: any PrepRecipe, limit: Int? = nil,
                excluding: Set<[UInt8]> = [],
                views: Int = 1, variation: PhotoVariation = PhotoVariation(), seed: UInt64 = 1,
                processor: ImageProcessor = ImageProcessor(), threads: Int = 2,
                progress: @Sendable (Int, Int) -> Void = { _, _ in }) throws(WardrobeError) {
        self.directory = directory
        self.recipe = recipe.identity
        if let reason = PhotoLabelMap.notAFolder(directory) { throw .invalidArgument("photo folder \(directory): \(reason)") }
        var files: [(path: String, accepted: [Int], folder: String)] = []
        let walked = map.photoFiles(under: directory)
        failures = walked.problems.map { Failure(path: $0.path, reason: $0.reason) }
        for (entry, found) in zip(map.entries, walked.files) where !entry.accepted.isEmpty {
            guard let paths = found else { continue }
            let accepted = entry.accepted.map { ClothingClassifier.labels.firstIndex(of: $0)! }
            for path in paths {
                files.append((path, accepted, entry.folder))
            }
        }
        guard !files.isEmpty else {
            throw .notFound("photos of the mapped folders (\(map.entries.filter { !$0.accepted.isEmpty }.map(\.folder).joined(separator: ", "))) in \(directory)")
        }

        let views = Views(count: views, variation: variation, seed: seed)
        let prepared = Self.prepare(files.map(\.path), recipe: recipe, views: views, processor: processor,
                                    threads: threads, progress: progress)
        var kept: [(hash: [UInt8], tensors: [[Float]], accepted: [Int], folder: String)] = []
        for (file, outcome) in zip(files, prepared) {
            switch outcome {
            case .success(let photo) where excluding.contains(photo.hash): excluded += 1
            case .success(let photo): kept.append((photo.hash, photo.tensors, file.accepted, file.folder))
            case .failure(let reason): failures.append(Failure(path: file.path, reason: reason))
            }
        }
        // Asked to learn from photos, none of which could be read (all junk, all unreadable):
        // the training went on for its minutes on Fashion-MNIST alone, recorded the photo
        // recipe, and wrote a rehearsal of 0 photos, as if the photos had been learned from.
        guard !kept.isEmpty || excluded > 0 else {
            let first = failures.first.map { " (the first, \($0.path): \($0.reason))" } ?? ""
            throw .invalidArgument("photo folder \(directory): none of the \(files.count) photos of the mapped folders "
                                   + "could be prepared\(first), so there is nothing to learn from them")
        }
        kept.sort { $0.hash.lexicographicallyPrecedes($1.hash) }
        var learned = kept.filter { $0.hash[0] >= Self.heldOutBelow }
        if let limit { learned = Array(learned.prefix(limit)) }
        for photo in kept where photo.hash[0] < Self.heldOutBelow { heldOut.append(photo.tensors[0], accepted: photo.accepted) }
        for photo in learned {
            learnedHashes.insert(SHA256Digest.hex(photo.hash))
            photos.append(photo.tensors[0], accepted: photo.accepted)
            for tensor in photo.tensors { training.append(tensor, accepted: photo.accepted) }
        }
        var learnedIn: [PathName.Key: Int] = [:]
        for photo in learned { learnedIn[PathName.Key(photo.folder), default: 0] += 1 }
        perFolder = map.entries.filter { !$0.accepted.isEmpty }.map { entry in
            (entry.folder, learnedIn[PathName.Key(entry.folder)] ?? 0)
        }
    }

    /// The SHA-256 of a photo's bytes, which decides whether it is held out and where it comes.
    public static func hash(of bytes: [UInt8]) -> [UInt8] { SHA256.digest(bytes) }

    /// What the model file records about these photos.
    public var source: DataSource {
        DataSource(name: "photos \(directory) (\(recipe))", tensors: photos)
    }

    private enum Outcome: Sendable {
        case success((hash: [UInt8], tensors: [[Float]]))
        case failure(String)
    }

    private struct Views: Sendable {
        var count: Int
        var variation: PhotoVariation
        var seed: UInt64

        /// The photo's tensor as it is, then `count - 1` varied ones (none for held-out photos).
        func tensors(of processed: ProcessedImage, hash: [UInt8], recipe: any PrepRecipe,
                     processor: ImageProcessor) throws(ImagingError) -> [[Float]] {
            var tensors = [processed.tensor.values]
            guard count > 1, hash[0] >= PhotoTrainingSet.heldOutBelow else { return tensors }
            let seen = try processor.decoder.decode(processed.thumbnail).bitmap
            let stream = hash.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            var generator = SeededGenerator(seed: seed, stream: stream)
            for _ in 1..<count {
                tensors.append(recipe.prepare(variation.apply(to: seen, generator: &generator)).values)
            }
            return tensors
        }
    }

    /// Hashes and prepares each file; results in the order of `paths`.
    private static func prepare(_ paths: [String], recipe: any PrepRecipe, views: Views, processor: ImageProcessor,
                                threads: Int, progress: @Sendable (Int, Int) -> Void) -> [Outcome] {
        let results = ResultSlots<Outcome>(count: paths.count)
        let done = Counter()
        DispatchQueue.concurrentPerform(iterations: max(threads, 1)) { worker in
            for i in stride(from: worker, to: paths.count, by: max(threads, 1)) {
                do throws(ImagingError) {
                    let bytes = try ImageFile.read(paths[i])
                    let processed = try processor.process(bytes: bytes, recipe: recipe)
                    let hash = SHA256.digest(bytes)
                    let tensors = try views.tensors(of: processed, hash: hash, recipe: recipe, processor: processor)
                    results.set(i, .success((hash, tensors)))
                } catch {
                    results.set(i, .failure(error.reason))
                }
                progress(done.increment(), paths.count)
            }
        }
        return results.values
    }
}

/// Slots written by index from several threads, each slot by one thread.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: T) { lock.withLock { slots[index] = value } }
    var values: [T] { lock.withLock { slots.map { $0! } } }
}

private final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func increment() -> Int { lock.withLock { value += 1; return value } }
}
