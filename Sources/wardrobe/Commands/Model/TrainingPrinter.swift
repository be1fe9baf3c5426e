import Foundation
import CommandLineKit
import Wardrobe

/// Prints `model train`'s progress on stderr: a bar per epoch with rate and
/// time left on a terminal, and otherwise (a log) a line at each quarter of an
/// epoch, so the first epoch of minutes is not silence; then a line per epoch.
final class TrainingPrinter: @unchecked Sendable {
    private let console: Console
    private let configuration: ModelTraining.Configuration
    private let lock = NSLock()
    /// Off a terminal: the last quarter of an epoch a line was printed for.
    private var quarterShown = (epoch: 0, quarter: 0)

    init(console: Console, configuration: ModelTraining.Configuration) {
        self.console = console
        self.configuration = configuration
    }

    func show(_ event: ModelTraining.Event) {
        lock.withLock { print(event) }
    }

    /// What the fine-tune would change, before anyone adopts it: agreement with the labels
    /// neither model learned from, then the labels it changes on images nobody gave one of the ten.
    func show(_ comparison: FineTuneComparison) {
        // Labelled images whose thumbnails could not be prepared are neither learned nor compared:
        // said here too, or the labels counted fell short of reclassify's without a word.
        var leftOutParts: [String] = []
        if comparison.learnedFrom > 0 { leftOutParts.append("\(comparison.learnedFrom) it learned from") }
        if comparison.failed > 0 {
            leftOutParts.append("\(comparison.failed) whose thumbnail\(comparison.failed == 1 ? "" : "s") could not be prepared")
        }
        let leftOut = leftOutParts.isEmpty ? "" : " (\(leftOutParts.joined(separator: ", ")) left out)"
        if comparison.labelled == 0 {
            let but = comparison.failed == 0 ? ""
                : " but \(comparison.failed) whose thumbnail\(comparison.failed == 1 ? "" : "s") could not be prepared"
            console.info("agreement: nothing to measure, as the new model learned from every label you gave "
                         + "(\(comparison.learnedFrom))\(but); labels given from now on measure it")
        } else {
            func share(_ count: Int) -> String { Format.percent(Double(count) / Double(comparison.labelled)) }
            console.info("agreement on the \(comparison.labelled) labels neither model learned from\(leftOut): the parent agrees "
                         + "with \(comparison.parentAgreeing) (\(share(comparison.parentAgreeing))), the new model with "
                         + "\(comparison.modelAgreeing) (\(share(comparison.modelAgreeing)))")
        }
        guard comparison.unlabelledCompared > 0 else { return }
        // A thumbnail that could not be prepared is not sampled away: it was said "(a sample)" of
        // a catalogue whose every such image was drawn.
        let drawn = comparison.unlabelledCompared + comparison.unlabelledFailed
        var sample = drawn == comparison.unlabelledAvailable ? "\(comparison.unlabelledAvailable)"
            : "\(drawn) (a sample) of \(comparison.unlabelledAvailable)"
        if comparison.unlabelledFailed > 0 {
            sample = "\(comparison.unlabelledCompared) of " + (drawn == comparison.unlabelledAvailable ? "the " : "") + sample
        }
        let failed = comparison.unlabelledFailed == 0 ? ""
            : " (\(comparison.unlabelledFailed) whose thumbnail\(comparison.unlabelledFailed == 1 ? "" : "s") could not be prepared left out)"
        let changed = Format.percent(Double(comparison.changed) / Double(comparison.unlabelledCompared))
        console.info("on \(sample) \(Self.unlabelled(comparison.unlabelledAvailable))\(failed), the new model changes \(comparison.changed) label\(comparison.changed == 1 ? "" : "s") (\(changed))"
                     + (comparison.transitions.isEmpty ? "" : ", most often:"))
        let rows = comparison.transitions.prefix(5).map { ["  \($0.from) -> \($0.to)", String($0.count)] }
        for line in Format.table(Array(rows), rightAligned: [1]).split(separator: "\n") { console.info(String(line)) }
    }

    /// `fields` two spaces apart, on as many lines as a terminal of `columns` needs (each a
    /// column short of its width, the later ones indented), whole fields only; one line
    /// without a terminal, as a log reads best. The epoch line took 101 columns and an
    /// 80-column terminal broke it mid-word.
    static func lines(_ fields: [String], columns: Int?) -> [String] {
        guard let columns else { return [fields.joined(separator: "  ")] }
        var lines: [String] = []
        for field in fields {
            if let last = lines.last, Format.columns(last) + 2 + Format.columns(field) <= columns - 1 {
                lines[lines.count - 1] = last + "  " + field
            } else {
                lines.append(lines.isEmpty ? field : "  " + field.drop { $0 == " " })
            }
        }
        return lines
    }

    /// `text` after `margin` spaces, broken between words to a terminal of `columns` (a column
    /// short of its width, as `lines`), the lines after the first indented two spaces more; one
    /// line without a terminal, as a log reads best.
    static func filled(_ text: String, columns: Int?, margin: Int = 0) -> [String] {
        let lead = String(repeating: " ", count: margin)
        guard let columns else { return [lead + text] }
        return (lead + Format.filled(text, width: columns - 1, indent: margin + 2, firstLineUsed: margin))
            .split(separator: "\n").map(String.init)
    }

    /// The images a fine-tune keeps its parent's answers on: those a person labelled `none` are
    /// among them, so "images nobody labelled" was untrue of a catalogue with a `none` label.
    /// The word takes the number before it ('on 1 image'; it said 'on 1 images').
    static func unlabelled(_ count: Int) -> String { "image\(count == 1 ? "" : "s") nobody gave one of the ten labels" }

    private func print(_ event: ModelTraining.Event) {
        switch event {
        case .preparingPhotos(let done, let total):
            if console.stderrIsTerminal || done == total { console.status("preparing photos \(done)/\(total)") }
        case .mappedFoldersAbsent(let directory, let folders):
            console.warning("\(directory): no folder \(folders.map { "'\($0)'" }.joined(separator: ", ")), which the map gives "
                + "labels; nothing is learned for \(folders.count == 1 ? "it" : "them")")
        case .photosReady(let training, let heldOut, let failures, let perFolder):
            console.clearStatus()
            for failure in failures { console.warning("\(failure.path): \(failure.reason)") }
            console.info("photos: \(training) to learn from (\(perFolder.joined(separator: ", "))), \(heldOut) held out")
        case .correctionsReady(let catalogue, let training, let heldOut, let failures, let perLabel, let excluded):
            for failure in failures { console.warning("\(catalogue): \(failure.path): \(failure.reason)") }
            var line = "corrections in \(catalogue): \(training) to learn from (\(perLabel.joined(separator: ", "))), \(heldOut) held out"
            if excluded > 0 { line += "; \(excluded) photos of --photos left to the label a person gave them in the catalogue" }
            console.info(line)
        case .training(let progress):
            show(progress)
        case .calibrated(let temperature, let before, let after):
            // As 'model info' says it: both figures are of the photos the temperature was fitted on.
            console.info(String(format: "calibration: temperature %.3f, fitted on the %d held-out photos to lower their ",
                                temperature, before.examples)
                + "negative log-likelihood; on them, confidence as trained: " + before.summary
                + "; with the temperature: " + after.summary)
        case .parentHeldOut(let accuracy, let photos, let parentRecipe, let given):
            let right = Int((accuracy * Double(photos)).rounded())
            // Given the new model's recipe, the parent is not seen as a catalogue runs it.
            let seen = parentRecipe.map { " (prepared with \(given), not its own \($0))" } ?? ""
            console.info("before training, the model being fine-tuned labels \(right) of the \(photos) held-out photos\(seen) right "
                + "(\(Format.percent(accuracy))); the 'photos' column below is the new model's on the same photos")
        case .rehearsing(let path, let learned, let heldOut, let recipe):
            console.info("rehearsing the parent's \(learned) photos (\(recipe), \(heldOut) more held out for calibration): \(path)")
        case .rehearsalRecipeDiffers(let rehearsal, let training):
            console.warning("the parent's photos were prepared with \(rehearsal), the new examples with \(training)")
        case .noRehearsal(let reason, let recorded):
            // A rehearsal the parent records and that cannot be had is no plain fact: said as one
            // among the info lines, a swapped or truncated file went by unnoticed.
            if recorded {
                console.warning("rehearsing no photos of the parent's, so what it learned from them may be forgotten: \(reason)")
            } else {
                console.info("rehearsing no photos of the parent's: \(reason)")
            }
        case .keepingParent(let images, let available, let stored, let learned, let failures):
            for failure in failures { console.warning("\(failure.path): \(failure.reason)") }
            console.info((learned ? "keeping the parent's answers on " : "measuring what the new model changes on ")
                + "\(images) of the \(available) \(Self.unlabelled(available)) (the parent's answers: \(stored) from their "
                + "stored classifications)")
        case .parentTemperatureKept(let heldOut, let minimum):
            console.info("calibration: the parent's temperature kept: \(heldOut) held-out photos, fewer than the \(minimum) a new one is fitted on")
        case .rehearsalHeldOut(let parent, let new, let photos):
            console.info(String(format: "the parent's held-out photos (%d, learned by neither model): the parent gets %.4f right, "
                + "the new model %.4f", photos, parent, new))
        case .notCalibrated:
            console.info("calibration: none, as no photo was held out (about 1 in 10 is, chosen by file hash); "
                + "the confidence is the model's as trained")
        }
    }

    private func show(_ event: ModelTraining.Progress) {
        let c = configuration
        switch event {
        case .started(_, let parameters, let examples, let validation, let heldOutPhotos, let steps):
            let passes = c.epochs == 1 ? "1 pass (epoch) over \(Format.count(examples)) examples"
                : "\(c.epochs) passes (epochs) over \(Format.count(examples)) examples each"
            // The held-out photos were once added to the Fashion-MNIST count ("5,003 Fashion-MNIST
            // images" for 5,000 and 3 photos).
            let photos = heldOutPhotos == 0 ? "" : " and \(Format.count(heldOutPhotos)) held-out photo\(heldOutPhotos == 1 ? "" : "s")"
            // Each filled between words to the terminal's width (141 and 103 columns broke mid-word on 80).
            for line in Self.filled("training: \(passes); \(Format.count(validation)) Fashion-MNIST images\(photos) are kept "
                                    + "aside, never learned from, to check it after each epoch", columns: console.statusColumns) {
                console.info(line)
            }
            // The layers are for 'model info'; this says what a run's figures depend on.
            for line in Self.filled("(a network of \(Format.count(parameters)) parameters; \(steps) steps of \(c.batchSize) "
                                    + "examples, peak learning rate \(c.peakLearningRate), seed \(c.seed), "
                                    + "\(c.threads) thread\(c.threads == 1 ? "" : "s"))", columns: console.statusColumns, margin: 2) {
                console.info(line)
            }
        case .step(let s):
            guard console.stderrIsTerminal else {
                // A log gets a line at each quarter of the epoch; the epoch's own line ends it.
                let quarter = 4 * s.step / max(s.stepsPerEpoch, 1)
                guard s.step < s.stepsPerEpoch, quarter > 0,
                      quarterShown.epoch != s.epoch || quarterShown.quarter < quarter else { return }
                quarterShown = (s.epoch, quarter)
                console.info("epoch \(s.epoch)/\(c.epochs): \(100 * s.step / max(s.stepsPerEpoch, 1))% "
                    + "(\(s.step) of \(s.stepsPerEpoch) steps), "
                    + String(format: "%.0f img/s, %@ left in this epoch, loss %.4f", s.imagesPerSecond,
                             Format.duration(s.secondsLeft), s.loss))
                return
            }
            // The bar gets what the figures leave of the terminal's width (at most 24 columns, none
            // under 4): with 24 always the line took about 90 columns and `status` cut off the loss.
            let head = "epoch \(s.epoch)/\(c.epochs) "
            let figures = "\(s.step)/\(s.stepsPerEpoch)  " + String(format: "%.0f img/s  %@ left in this epoch  loss %.4f",
                                                                   s.imagesPerSecond, Format.duration(s.secondsLeft), s.loss)
            let room = console.statusColumns.map { max(0, $0 - 1) } ?? Int.max
            let width = min(24, room - Format.columns(head) - Format.columns(figures) - 1)
            let filled = max(width, 0) * s.step / max(s.stepsPerEpoch, 1)
            let bar = width < 4 ? "" : String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + " "
            console.status(head + bar + figures)
        case .epoch(let r):
            console.clearStatus()
            var fields = [String(format: "epoch %2d/%d", r.epoch, r.epochs), String(format: "loss %.4f", r.loss),
                          String(format: "train %.4f", r.trainingAccuracy), String(format: "val %.4f", r.validationAccuracy)]
            if let photos = r.photoValidationAccuracy { fields.append(String(format: "photos %.4f", photos)) }
            fields += [String(format: "%4.0f img/s", r.imagesPerSecond), String(format: "lr %.4f", r.learningRate),
                       // The whole run's times, where the bar's are the epoch's.
                       "run: \(Format.duration(r.secondsElapsed)) elapsed, \(Format.duration(r.secondsLeft)) left"]
            for line in Self.lines(fields, columns: console.statusColumns) { console.info(line) }
        case .finished(let accuracy, let seconds):
            console.info(String(format: "test accuracy %.4f", accuracy) + " (trained in \(Format.duration(seconds)))")
        }
    }
}
