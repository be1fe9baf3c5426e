import Foundation
import Inference
import Testing
import Training

/// Weight averaging: the network of means, and several fine-tuning runs from
/// one parent averaged into the model (`TrainingConfiguration.runs`).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: FashionMNIST.defaultDirectory + "/t10k-images-idx3-ubyte.gz"),
                "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
struct AveragingTests {
    @Test func theAverageHoldsTheMeanOfEveryParameterAndStatistic() {
        let a = Network(architecture: TrainerTests.tiny, seed: 1)
        var b = Network(architecture: TrainerTests.tiny, seed: 2)
        for i in b.statistics.indices { b.statistics[i] += Float(i % 7) }
        let average = Network(averaging: [a, b])
        #expect(average.parameters.indices.allSatisfy {
            abs(average.parameters[$0] - (a.parameters[$0] + b.parameters[$0]) / 2) <= 1e-6
        })
        #expect(average.statistics.indices.allSatisfy {
            abs(average.statistics[$0] - (a.statistics[$0] + b.statistics[$0]) / 2) <= 1e-6
        })
        #expect(average.parameters != a.parameters && average.statistics != b.statistics)
        let alone = Network(averaging: [a])
        #expect(alone.parameters == a.parameters && alone.statistics == a.statistics)
    }

    /// Two runs are the runs of seeds S and S+1 made one at a time, and the
    /// model is their average, measured as a run's network is.
    @Test func runsAreTheSeedsRunsAveraged() throws {
        let test = try FashionMNIST(split: .test), train = try FashionMNIST(split: .train)
        let parent = try TrainerTests.run(seed: 1).network
        var c = TrainerTests.configuration(seed: 7)
        c.epochs = 1
        c.peakLearningRate = 0.01
        c.photoShare = 0.5
        let photos = TrainerTests.photos(0..<300, from: test), heldOut = TrainerTests.photos(300..<500, from: test)
        func run(_ configuration: TrainingConfiguration) -> Trainer.Result {
            Trainer(architecture: TrainerTests.tiny, configuration: configuration)
                .train(training: train, test: test, photos: photos, heldOutPhotos: heldOut, parent: parent)
        }
        let seven = c
        var eight = c
        eight.seed = 8
        let one = run(seven), other = run(eight)
        c.runs = 2
        var events: [String] = []
        let averaged = Trainer(architecture: TrainerTests.tiny, configuration: c)
            .train(training: train, test: test, photos: photos, heldOutPhotos: heldOut, parent: parent) { event in
                switch event {
                case .runStarted(let run, let runs, let seed): events.append("run \(run)/\(runs) seed \(seed)")
                case .averaged(let report): events.append("averaged \(report.runs)")
                default: break
                }
            }
        let expected = Network(averaging: [one.network, other.network])
        #expect(averaged.network.parameters == expected.parameters)
        #expect(averaged.network.statistics == expected.statistics)
        #expect(averaged.network.parameters != one.network.parameters)
        #expect(averaged.averagedRuns.map(\.seed) == [7, 8])
        #expect(averaged.averagedRuns.map(\.photoValidationAccuracy) == [one.photoValidationAccuracy, other.photoValidationAccuracy])
        #expect(averaged.averagedRuns.map(\.testAccuracy) == [one.testAccuracy, other.testAccuracy])
        #expect(events == ["run 1/2 seed 7", "run 2/2 seed 8", "averaged 2"])
        #expect(averaged.epochs.count == 2 && averaged.configuration.seed == 7 && averaged.configuration.runs == 2)
        // The average's own figures, not a run's.
        let logits = Trainer.logits(averaged.network, photos: heldOut)
        #expect(averaged.photoValidationAccuracy == Trainer.accuracy(logits, of: heldOut))
        #expect(averaged.testAccuracy > 0.5)
        let metadata = averaged.modelFile().description
        #expect(metadata.training["runs"]?.hasPrefix("2 from the parent (seeds 7, 8)") == true)
        #expect(metadata.training["run_accuracies"]?.hasPrefix("seed 7: held-out photos ") == true)
    }
}
