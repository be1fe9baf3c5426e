import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe model evaluate --images DIR --map FILE [--recipe NAME|all]`: the model on folders
/// of labelled real photos; the scoring lives in Wardrobe's PhotoEvaluation.
extension ModelEvaluateCommand {
    func runPhotos(images: String, map: String, console: Console) throws -> ExitStatus {
        let map = try PhotoLabelMap(contentsOf: map)
        let catalogue = try console.setup.catalogue(explicit: self.catalogue.path, mode: .readOnly)
        let classifier = try catalogue.classifier(explicit: model.path)
        let recipes = try catalogue.recipes(named: recipe, for: classifier.model)
        // The model's temperature undoes its calibration (its last layer was divided by it).
        let scale = uncalibrated ? try classifier.model.temperature ?? 1 : 1
        let report = try PhotoEvaluation(classifier: classifier, recipes: recipes, logitScale: scale)
            .evaluate(imagesAt: images, map: map) { done, total in
                console.status("evaluating \(done)/\(total)")
            }
        console.clearStatus()
        for failure in report.failures { console.warning("\(failure.path): \(failure.reason)") }
        // Scored, no photo was 'mapped accuracy 0.000 (0 of 0)' with status 0.
        guard report.recipes.contains(where: { $0.photos > 0 }) else {
            throw WardrobeError.invalidArgument("none of the \(report.failures.count) photos of the mapped folders in "
                                                + "\(images) could be scored; each is named above")
        }
        if output.json {
            try console.json(report, of: "the evaluation on photos")
            return .success
        }
        let photos = report.recipes.first?.photos ?? 0
        console.info(String(format: "%d photo%@, %d recipe(s) in %.1f s", photos, photos == 1 ? "" : "s", recipes.count, report.seconds))
        console.output("model     \(report.model) (\(classifier.model.path))")
        var scope = "images    \(report.images): \(photos) photo\(photos == 1 ? "" : "s") in \(report.recipes.first?.folders.count ?? 0) mapped folders"
        if !report.excluded.isEmpty {
            scope += "; excluded: " + report.excluded.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        if !report.unmapped.isEmpty { scope += "; not in the map: " + report.unmapped.joined(separator: ", ") }
        if !report.absent.isEmpty { scope += "; mapped but not there: " + report.absent.joined(separator: ", ") }
        console.output(scope)
        let short = report.labels.map { String($0.prefix(5)) }
        for score in report.recipes {
            console.output("")
            console.output(String(format: "recipe %@: mapped accuracy %.3f (%d of %d)", score.recipe, score.mappedAccuracy,
                                  score.correct, score.photos))
            var rows = [["folder", "photos", "correct", "accuracy", "accepted"]]
            for folder in score.folders {
                rows.append([folder.folder, String(folder.photos), String(folder.correct),
                             folder.accuracy.map { String(format: "%.3f", $0) } ?? "-", folder.accepted.joined(separator: ", ")])
            }
            console.outputLines(Format.table(rows, rightAligned: [1, 2, 3]))
            let c = score.calibration
            console.output(String(format: "confidence%@: ECE %.3f (%d bins); confidence >= %.1f on %.3f of the photos, %@ right",
                                  uncalibrated ? " (uncalibrated)" : "", c.expectedCalibrationError, c.bins, c.threshold,
                                  c.confidentCoverage, c.confidentPrecision.map { String(format: "%.3f", $0) } ?? "none"))
            console.output("confusion (rows: folder, columns: predicted label)")
            var confusion = [[""] + short]
            for folder in score.folders { confusion.append([folder.folder] + folder.predictions.map(String.init)) }
            console.outputLines(Format.table(confusion, rightAligned: Set(1...short.count)))
        }
        return .success
    }
}
