import Foundation
import Testing
import Training

/// Learning another model's probabilities (soft targets), drawing examples
/// by weight, and the rehearsal file that carries a model's photos to its
/// fine-tunes.
@Suite struct SoftTargetTests {
    /// Analytic gradients of the distillation loss, mixed with labelled
    /// examples in one batch, against central differences.
    @Test(arguments: [Float(1), 2, 4])
    func softTargetGradientsMatchFiniteDifferences(temperature: Float) {
        var network = Network(architecture: PhotoLearningTests.small, seed: 5)
        var generator = SeededGenerator(seed: 6)
        network.parameters = network.parameters.map { _ in 0.7 * generator.normal() }
        let examples = (0..<12).map { _ in generator.normal() }
        let targets: [Network.Target] = [.soft([0.5, 0.2, 0.1, 0.1, 0.05, 0.05]), .accepted([2]),
                                         .soft([0, 0, 1, 0, 0, 0])]
        let analytic = network.gradients(examples: examples, targets: targets, temperature: temperature)
        let h: Float = 1e-2
        for i in network.parameters.indices {
            var plus = network, minus = network
            plus.parameters[i] += h
            minus.parameters[i] -= h
            let numeric = Float((plus.gradients(examples: examples, targets: targets, temperature: temperature).loss
                - minus.gradients(examples: examples, targets: targets, temperature: temperature).loss) / Double(2 * h))
            #expect(abs(analytic.parameters[i] - numeric) <= 1e-3 + 3e-2 * abs(numeric),
                    "parameter \(i): analytic \(analytic.parameters[i]), numeric \(numeric)")
        }
        #expect(analytic.parameters.contains { abs($0) > 1e-2 })
    }

    /// The loss is T^2 KL(q || softmax(z/T)): nothing to learn where the
    /// network already gives the target, and by hand elsewhere.
    @Test func softTargetLossIsTheScaledDivergence() {
        let logits: [Float] = [2, -1, 0.5, 0]
        let t: Float = 2
        let agreeing = SoftTargets.softmax(logits, temperature: t)
        let same = PhotoLearningTests.identity(4).gradients(examples: logits, targets: [.soft(agreeing)], temperature: t)
        #expect(abs(same.loss) < 1e-6)
        #expect(same.input.allSatisfy { abs($0) < 1e-6 })
        let q: [Float] = [0.1, 0.6, 0.2, 0.1]
        let p = SoftTargets.softmax(logits, temperature: t)
        let expected = Double(t * t) * zip(q, p).map { Double($0) * log(Double($0) / Double($1)) }.reduce(0, +)
        let loss = PhotoLearningTests.identity(4).gradients(examples: logits, targets: [.soft(q)], temperature: t).loss
        #expect(abs(loss - expected) < 1e-5)
    }

    /// Weighted photos are drawn in proportion to their weights; soft targets
    /// take their share of the epoch, each in turn.
    @Test func weightedPhotosAndSoftTargetsTakeTheirShares() {
        var stream = ExampleStream(fashion: Array(0..<1000), fashionCount: 1000, photos: 3, photoShare: 0.4,
                                   photoWeights: [1, 3, 0], softTargets: 5, softTargetShare: 0.2)
        #expect(stream.photosPerEpoch == 1000 && stream.softTargetsPerEpoch == 500 && stream.perEpoch == 2500)
        var generator = SeededGenerator(seed: 1)
        var counts = [Int](repeating: 0, count: 1008)
        for _ in 0..<20 { for index in stream.nextEpoch(&generator) { counts[index] += 1 } }
        #expect(counts[0..<1000].allSatisfy { $0 == 20 })
        let photo = counts[1000..<1003]
        #expect(photo[1002] == 0, "a photo of weight 0 is never drawn")
        #expect(abs(Double(photo[1001]) / Double(photo[1000]) - 3) < 0.15, "weights 1 and 3 drew \(photo)")
        #expect(counts[1003..<1008].allSatisfy { $0 == 2000 }, "soft targets drawn in turn: \(counts[1003...])")
    }

    /// Without weights and soft targets the epoch is the one the trainer always
    /// drew: Fashion-MNIST once, each photo in turn.
    @Test func unweightedPhotosAreDrawnInTurn() {
        var stream = ExampleStream(fashion: Array(0..<70), fashionCount: 70, photos: 6, photoShare: 0.3)
        #expect(stream.photosPerEpoch == 30 && stream.softTargetsPerEpoch == 0)
        var generator = SeededGenerator(seed: 2)
        let order = stream.nextEpoch(&generator)
        let photos = order.filter { $0 >= 70 }
        #expect(photos.count == 30 && Set(photos).count == 6)
        #expect((70..<76).allSatisfy { p in photos.filter { $0 == p }.count == 5 })
    }

    /// A share too small for a short epoch still draws a photo: it rounded to none, and a
    /// quick fine-tune (--limit 2) recorded as learned the corrections it never saw.
    @Test func aSmallShareOfAShortEpochStillDrawsPhotos() {
        var stream = ExampleStream(fashion: Array(0..<2), fashionCount: 2, photos: 11, photoShare: 0.05)
        #expect(stream.photosPerEpoch == 1)
        var generator = SeededGenerator(seed: 1)
        #expect(stream.nextEpoch(&generator).filter { $0 >= 2 }.count == 1)
        #expect(ExampleStream(fashion: Array(0..<2), fashionCount: 2, photos: 11, photoShare: 0).photosPerEpoch == 0)
    }

    static func tensors(_ count: Int, seed: UInt64) -> LabelledTensors {
        var generator = SeededGenerator(seed: seed)
        var result = LabelledTensors()
        for i in 0..<count {
            result.append((0..<784).map { _ in Float(generator.below(256)) / 255 }, accepted: i % 3 == 0 ? [5, 7, 9] : [i % 10])
        }
        return result
    }

    @Test func aRehearsalReadsBackAsWritten() throws {
        let rehearsal = Rehearsal(learned: Self.tensors(7, seed: 1), heldOut: Self.tensors(3, seed: 2), recipe: "photo@4")
        let bytes = rehearsal.serialized()
        #expect(try Rehearsal(bytes: bytes) == rehearsal)
        #expect(bytes.count < 8 + 1024 + 10 * (784 + 11), "one byte a value: \(bytes.count) bytes")
        #expect(Rehearsal.path(besideModel: "/m/mine.aimodel") == "/m/mine.rehearsal.safetensors")
        #expect(Rehearsal.path(besideModel: "/m/model") == "/m/model.rehearsal.safetensors")
    }

    /// Every cut and every changed byte of the header is an error that says
    /// the file is no rehearsal, never a crash or a set of wrong photos.
    @Test func aDamagedRehearsalIsRefused() throws {
        let bytes = Rehearsal(learned: Self.tensors(2, seed: 3), heldOut: LabelledTensors(), recipe: "photo@4").serialized()
        for cut in stride(from: 0, to: bytes.count - 1, by: 97) {
            #expect(throws: TrainingError.self) { try Rehearsal(bytes: Array(bytes[..<cut])) }
        }
        let headerLength = Int(bytes[0]) | Int(bytes[1]) << 8
        for position in 8..<(8 + headerLength) {
            var changed = bytes
            changed[position] ^= 0x5A
            if let read = try? Rehearsal(bytes: changed) {
                #expect(read.learned.count + read.heldOut.count == 2, "byte \(position) changed the photos read")
            }
        }
        var flagged = bytes
        flagged[bytes.count - 2 * 784 - 1] = 2   // the second photo's held_out flag
        #expect(throws: TrainingError.badRehearsal("photo 1 has held_out 2, not 0 or 1")) { try Rehearsal(bytes: flagged) }
    }

    /// A rehearsal file written by `serialized()` with its header's tensor entries changed.
    static func withTensorOffsets(_ bytes: [UInt8], _ change: (inout [String: [Int]]) -> Void) -> [UInt8] {
        let length = (0..<8).reduce(0) { $0 | Int(bytes[$1]) << (8 * $1) }
        var header = try! JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + length)])) as! [String: Any]
        var offsets: [String: [Int]] = [:]
        for name in ["accepted", "held_out", "images"] { offsets[name] = (header[name] as! [String: Any])["data_offsets"] as? [Int] }
        change(&offsets)
        for (name, range) in offsets {
            var entry = header[name] as! [String: Any]
            entry["data_offsets"] = range
            header[name] = entry
        }
        var json = [UInt8](try! JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        while (8 + json.count) % 8 != 0 { json.append(0x20) }
        return (0..<8).map { UInt8(UInt64(json.count) >> (8 * UInt64($0)) & 0xff) } + json + bytes[(8 + length)...]
    }

    /// Offsets near 2^63 whose difference wraps around to the tensor's size passed the check
    /// (this module is built without overflow checks) and the photos were read from outside
    /// the file: a crash (signal 11) of `model train` fine-tuning a model with such a file
    /// beside it. Two tensors on the same bytes gave photos made of the labels' bytes, which a
    /// fine-tune rehearsed and calibrated on. Both are refused.
    @Test func offsetsThatWrapOrOverlapAreRefused() throws {
        let bytes = Rehearsal(learned: Self.tensors(4, seed: 5), heldOut: Self.tensors(2, seed: 6), recipe: "photo@4").serialized()
        let wrapped = Self.withTensorOffsets(bytes) { offsets in
            let size = offsets["images"]![1] - offsets["images"]![0]
            let begin = Int.max - 4
            offsets["images"] = [begin, begin &+ size]
        }
        #expect(throws: TrainingError.badRehearsal("'images' has data_offsets \([Int.max - 4, (Int.max - 4) &+ 6 * 784]), not [begin, end]")) {
            try Rehearsal(bytes: wrapped)
        }
        let overlapping = Self.withTensorOffsets(bytes) { offsets in
            let size = offsets["images"]![1] - offsets["images"]![0]
            offsets["images"] = [0, size]
        }
        #expect(throws: TrainingError.badRehearsal("'accepted' and 'images' overlap")) { try Rehearsal(bytes: overlapping) }
    }
}
