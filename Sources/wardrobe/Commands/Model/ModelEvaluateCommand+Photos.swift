import Foundation
import Imaging
import Training
import Wardrobe

/// `wardrobe model evaluate --images DIR --map FILE [--recipe NAME|all]`: the model on folders
/// of labelled real photos; the scoring lives in Wardrobe's PhotoEvaluation.
extension ModelEvaluateCommand {
    struct PhotoOptions {
        var images: String
        var map: String
        var recipe: String?
        var uncalibrated: Bool
    }

    static let photoOptions: [OptionSpec] = [
        .value("--images", "DIR", "Evaluate on labelled photos instead: one subfolder per kind (see --map)."),
        .value("--map", "FILE", "With --images: 'folder: Label, Label' per line, 'folder: none' to exclude."),
        .value("--recipe", "NAME", "With --images: the prep recipe, or 'all' to compare every recipe (default: the model's, else \(PrepRecipes.default.name))."),
        .flag("--uncalibrated", "With --images: confidence as before calibration (logits times the model's temperature)."),
    ]

    static func photoOptions(_ arguments: ParsedArguments) throws(UsageError) -> PhotoOptions? {
        guard let images = arguments.value("--images") else {
            for name in ["--map", "--recipe"] where arguments.value(name) != nil {
                throw arguments.usageError("\(name) needs --images")
            }
            if arguments.flag("--uncalibrated") { throw arguments.usageError("--uncalibrated needs --images") }
            return nil
        }
        guard let map = arguments.value("--map") else { throw arguments.usageError("--images needs --map FILE") }
        for name in ["--data", "--limit"] where arguments.value(name) != nil {
            throw arguments.usageError("\(name) is for the Fashion-MNIST test set, not with --images")
        }
        return PhotoOptions(images: images, map: map, recipe: arguments.value("--recipe"),
                            uncalibrated: arguments.flag("--uncalibrated"))
    }

    func runPhotos(_ options: PhotoOptions, console: Console) throws -> ExitStatus {
        let map = try PhotoLabelMap(contentsOf: options.map)
        let classifier = try console.setup.classifier(explicit: model)
        let recipes: [any PrepRecipe] = options.recipe == "all" ? PrepRecipes.all
            : [try console.setup.recipe(named: options.recipe, for: classifier.model)]
        // The model's temperature undoes its calibration (its last layer was divided by it).
        let scale = options.uncalibrated ? classifier.model.training[TrainingRecord.Key.temperature].flatMap(Float.init) ?? 1 : 1
        let report = try PhotoEvaluation(classifier: classifier, recipes: recipes, logitScale: scale)
            .evaluate(imagesAt: options.images, map: map) { done, total in
                console.status("evaluating \(done)/\(total)")
            }
        console.clearStatus()
        for failure in report.failures { console.warning("\(failure.path): \(failure.reason)") }
        if json {
            try console.json(report)
            return .success
        }
        let photos = report.recipes.first?.photos ?? 0
        console.info(String(format: "%d photos, %d recipe(s) in %.1f s", photos, recipes.count, report.seconds))
        console.output("model     \(report.model) (\(classifier.model.path))")
        var scope = "images    \(report.images): \(photos) photos in \(report.recipes.first?.folders.count ?? 0) mapped folders"
        if !report.excluded.isEmpty {
            scope += "; excluded: " + report.excluded.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        if !report.unmapped.isEmpty { scope += "; not in the map: " + report.unmapped.joined(separator: ", ") }
        console.output(scope)
        let short = report.labels.map { String($0.prefix(5)) }
        for score in report.recipes {
            console.output("")
            console.output(String(format: "recipe %@: mapped accuracy %.3f (%d of %d)", score.recipe, score.mappedAccuracy,
                                  score.correct, score.photos))
            var rows = [["folder", "photos", "correct", "accuracy", "accepted"]]
            for folder in score.folders {
                rows.append([folder.folder, String(folder.photos), String(folder.correct),
                             String(format: "%.3f", folder.accuracy), folder.accepted.joined(separator: ", ")])
            }
            console.output(Format.table(rows, rightAligned: [1, 2, 3]))
            let c = score.calibration
            console.output(String(format: "confidence%@: ECE %.3f (%d bins); confidence >= %.1f on %.3f of the photos, %@ right",
                                  options.uncalibrated ? " (uncalibrated)" : "", c.expectedCalibrationError, c.bins, c.threshold,
                                  c.confidentCoverage, c.confidentPrecision.map { String(format: "%.3f", $0) } ?? "none"))
            console.output("confusion (rows: folder, columns: predicted label)")
            var confusion = [[""] + short]
            for folder in score.folders { confusion.append([folder.folder] + folder.predictions.map(String.init)) }
            console.output(Format.table(confusion, rightAligned: Set(1...short.count)))
        }
        return .success
    }
}
