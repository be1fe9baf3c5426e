import Foundation
import Observation
import Synchronization
import Testing
import Training
@testable import Wardrobe

/// `ClothingClassifier`'s observable state is what an app binds its view
/// to: an observer must hear of every classification published.
@Suite struct ClassifierObservationTests {
    @Test func anObserverSeesEachPublishedClassification() throws {
        let classifier = try EngineFolder.classifier()
        #expect(classifier.ready)
        #expect(classifier.result == nil && classifier.confidence == nil)
        let test = try FashionMNIST(split: .test)
        for index in 0..<3 {
            let tensor = test.image(index).map { Float($0) / 255 }
            let changed = Atomic<Int>(0)
            withObservationTracking {
                _ = classifier.result
                _ = classifier.confidence
            } onChange: {
                changed.add(1, ordering: .relaxed)
            }
            let published = classifier.classifyAndPublish(tensor: tensor)
            let told = changed.load(ordering: .relaxed)
            #expect(told == 1, "told once, at the first change")
            #expect(classifier.result == published.label)
            #expect(classifier.confidence == published.confidence)
        }
    }

    @Test func classifyingWithoutPublishingTellsNoOne() throws {
        let classifier = try EngineFolder.classifier()
        let changed = Atomic<Bool>(false)
        withObservationTracking {
            _ = classifier.result
        } onChange: {
            changed.store(true, ordering: .relaxed)
        }
        _ = classifier.classify(tensor: [Float](repeating: 0, count: ClothingClassifier.pixelsPerImage))
        let told = changed.load(ordering: .relaxed)
        #expect(!told)
        #expect(classifier.result == nil)
    }
}
