import Files
import Foundation
import Imaging
import Training

/// `wardrobe model evaluate --images DIR --map FILE`: how well the model does on folders of
/// labelled real photos, for one or several prep recipes. Each photo goes through the import's
/// ImageProcessor once; every recipe prepares its tensor from the same pixels an import uses.
public struct PhotoEvaluation {
    public struct FolderScore: Sendable, Encodable {
        public var folder: String
        public var accepted: [String]
        public var photos: Int
        public var correct: Int
        /// Nil for a folder of which no photo could be scored (null in JSON): it was
        /// 'accuracy 0.000', as if every photo had been wrong.
        public var accuracy: Double?
        /// How many photos of the folder got each label, in label order.
        public var predictions: [Int]

        enum CodingKeys: String, CodingKey { case folder, accepted, photos, correct, accuracy, predictions }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(folder, forKey: .folder)
            try container.encode(accepted, forKey: .accepted)
            try container.encode(photos, forKey: .photos)
            try container.encode(correct, forKey: .correct)
            try container.encode(accuracy, forKey: .accuracy)
            try container.encode(predictions, forKey: .predictions)
        }
    }

    public struct RecipeScore: Sendable, Encodable {
        public var recipe: String
        /// Photos in mapped (not excluded) folders that could be read.
        public var photos: Int
        public var correct: Int
        public var mappedAccuracy: Double
        public var folders: [FolderScore]
        /// Confidence against correctness over the mapped photos (15 bins, threshold 0.8).
        public var calibration: CalibrationReport

        enum CodingKeys: String, CodingKey {
            case recipe, photos, correct, folders, calibration
            case mappedAccuracy = "mapped_accuracy"
        }
    }

    public struct Failure: Sendable, Encodable {
        public var path: String
        public var reason: String
    }

    public struct Report: Sendable, Encodable {
        public var images: String
        public var model: String
        public var labels: [String]
        public var recipes: [RecipeScore]
        /// Folders the map excludes, with their photo counts (not evaluated).
        public var excluded: [String: Int]
        /// Folders found but not in the map (not evaluated).
        public var unmapped: [String]
        /// Folders the map gives labels that are not there.
        public var absent: [String]
        public var failures: [Failure]
        public var seconds: Double
    }

    let classifier: ClothingClassifier
    let processor: ImageProcessor
    let recipes: [any PrepRecipe]
    /// Logits are multiplied by this before the softmax: the model's recorded temperature
    /// undoes its calibration, to compare confidence before and after.
    let logitScale: Float

    public init(classifier: ClothingClassifier, recipes: [any PrepRecipe], processor: ImageProcessor = ImageProcessor(),
                logitScale: Float = 1) {
        precondition(!recipes.isEmpty, "at least one recipe")
        self.classifier = classifier
        self.recipes = recipes
        self.processor = processor
        self.logitScale = logitScale
    }

    /// Evaluates every file in the map's folders under `directory`. Unreadable files are
    /// listed as failures and left out of the scores. `progress(done, total)` after each photo.
    public func evaluate(imagesAt directory: String, map: PhotoLabelMap,
                         progress: (Int, Int) -> Void = { _, _ in }) throws(WardrobeError) -> Report {
        let start = Date()
        if let reason = PhotoLabelMap.notAFolder(directory) { throw .invalidArgument("image folder \(directory): \(reason)") }
        // Names compared as bytes, as the system compares them: a map's 'café' is not the folder
        // 'cafe\u{301}', which was taken for mapped and then read as no photos (0 of 0).
        let listed = (PathName.names(inFolder: directory) ?? []).filter { PhotoLabelMap.isFolder(directory + "/" + $0) }
        let walked = map.photoFiles(under: directory)
        // Each entry with the files of its folder, for the folders that are there.
        let found = zip(map.entries, walked.files).compactMap { entry, files in files.map { (entry, $0) } }
        let work = found.filter { !$0.0.accepted.isEmpty }
        guard !work.isEmpty else {
            let mapped = map.entries.filter { !$0.accepted.isEmpty }
            throw .invalidArgument("none of the mapped folders (\(mapped.map(\.folder).joined(separator: ", "))) is a folder in \(directory)")
        }

        var excluded = [String: Int]()
        for (entry, files) in found where entry.accepted.isEmpty {
            excluded[entry.folder] = files.count
        }
        let total = work.reduce(0) { $0 + $1.1.count }
        // As training says it: scored, no photo was 'mapped accuracy 0.000 (0 of 0)', status 0.
        guard total > 0 else {
            throw .notFound("photos of the mapped folders (\(work.map(\.0.folder).joined(separator: ", "))) in \(directory)")
        }
        var done = 0
        var failures = walked.problems.map { Failure(path: $0.path, reason: $0.reason) }
        // predictions[recipe][folder][label]
        var predictions = [[[Int]]](repeating: [[Int]](repeating: [Int](repeating: 0, count: ClothingClassifier.labels.count),
                                                        count: work.count), count: recipes.count)
        // confidences[recipe] and rightAnswers[recipe], one entry per photo
        var confidences = [[Double]](repeating: [], count: recipes.count)
        var rightAnswers = [[Bool]](repeating: [], count: recipes.count)
        for (folderIndex, (entry, paths)) in work.enumerated() {
            for path in paths {
                do {
                    // The import's own path (decode once, thumbnail, prepare), so the score is
                    // what an import of these photos would get.
                    let processed = try processor.process(bytes: try ImageFile.read(path), recipes: recipes)
                    let classifications = processed.tensors.map { tensor in
                        let classification = classifier.classify(tensor: tensor.values)
                        return logitScale == 1 ? classification
                            : Classification(logits: classification.logits.map { $0 * logitScale })
                    }
                    if classifications.allSatisfy(\.isFinite) {
                        for (recipeIndex, classification) in classifications.enumerated() {
                            predictions[recipeIndex][folderIndex][classification.labelIndex] += 1
                            confidences[recipeIndex].append(Double(classification.confidence))
                            rightAnswers[recipeIndex].append(entry.accepted.contains(classification.label))
                        }
                    } else {
                        // No label or confidence follows from logits that are not finite (a NaN
                        // confidence stopped the calibration report): the photo fails, for every recipe.
                        failures.append(Failure(path: path, reason: Classification.notFiniteReason))
                    }
                } catch {
                    failures.append(Failure(path: path, reason: error.reason))
                }
                done += 1
                progress(done, total)
            }
        }

        let scores = recipes.enumerated().map { recipeIndex, recipe in
            let folders = work.enumerated().map { folderIndex, item in
                let counts = predictions[recipeIndex][folderIndex]
                let photos = counts.reduce(0, +)
                let correct = item.0.accepted.reduce(0) { sum, label in
                    sum + counts[ClothingClassifier.labels.firstIndex(of: label)!]
                }
                return FolderScore(folder: item.0.folder, accepted: item.0.accepted, photos: photos, correct: correct,
                                   accuracy: photos == 0 ? nil : Double(correct) / Double(photos), predictions: counts)
            }
            let photos = folders.reduce(0) { $0 + $1.photos }
            let correct = folders.reduce(0) { $0 + $1.correct }
            return RecipeScore(recipe: recipe.identity, photos: photos, correct: correct,
                               mappedAccuracy: photos == 0 ? 0 : Double(correct) / Double(photos), folders: folders,
                               calibration: CalibrationReport(confidences: confidences[recipeIndex],
                                                              correct: rightAnswers[recipeIndex]))
        }
        let known = Set(map.entries.map { PathName.Key($0.folder) })
        return Report(images: directory, model: "\(classifier.model.name) \(classifier.model.version)",
                      labels: ClothingClassifier.labels, recipes: scores, excluded: excluded,
                      unmapped: listed.filter { !known.contains(PathName.Key($0)) }.sorted(),
                      absent: zip(map.entries, walked.files).filter { !$0.0.accepted.isEmpty && $0.1 == nil }.map(\.0.folder),
                      failures: failures,
                      seconds: Date().timeIntervalSince(start))
    }
}
