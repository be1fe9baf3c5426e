import Foundation
import Inference
import Testing

/// A shipped model reads, writes back byte for byte, and gives the logits it
/// gave when these figures were recorded, bit for bit: a change to the reader,
/// the graph check or the planning that alters what a shipped model computes
/// fails here. The model is the Fashion-MNIST-only one (it was the bundled
/// model when the figures were recorded and does not change when the bundled
/// model is retrained); the bundled model has the same graph.
@Suite struct BundledModelTests {
    static let path = FileManager.default.currentDirectoryPath + "/Models/fashion-mnist-only.aimodel"

    /// Four images: all zeros, all ones, and two of uniform noise (seeds 1 and 2).
    static func images() -> [Float] {
        var images = [Float](repeating: 0, count: 784) + [Float](repeating: 1, count: 784)
        for seed in [1, 2] as [UInt64] {
            var random = Random(seed: seed)
            images += (0..<784).map { _ in abs(random.float()) }
        }
        return images
    }

    static func logitBits(_ kernels: KernelChoice) throws -> [UInt32] {
        let main = try CompiledModel(contentsOf: URL(fileURLWithPath: path), kernels: kernels).function(named: "main")
        let images = Self.images()
        var logits = [Float](repeating: 0, count: 4 * 10)
        try images.withUnsafeBufferPointer { input in
            try logits.withUnsafeMutableBufferPointer { try main.run(input: input, count: 4, output: $0) }
        }
        return logits.map(\.bitPattern)
    }

    @Test func readsAndWritesBackByteForByte() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path)))
        let file = try ModelFile(bytes: bytes)
        #expect(file.serialized() == bytes)
        #expect(file.fingerprint == Self.fingerprint)
    }

    @Test func givesTheRecordedLogits() throws {
        #expect(try Self.logitBits(.portable) == Self.portable)
        // The vector kernels fuse each multiply-add, unlike the portable ones.
        // AVX-512 and AVX2 do so in the same order, so they agree bit for bit.
        if KernelChoice.vectorWidth > 1 {
            #expect(try Self.logitBits(.fastest) == Self.fastest)
        }
    }

    static let fingerprint = "bf921ab4f203d2eb"
    /// Recorded before the runtime's operations were split into one unit each.
    static let portable: [UInt32] = [
        0xbfd8c0b2, 0xbfc9d032, 0xc0621577, 0x3ed16acb, 0xbfd4ee3d,
        0x40c181bb, 0xc0417e73, 0x408ad56d, 0x3f943274, 0x3f594d7c,
        0x400c7164, 0x3f1a78ba, 0x3e963c70, 0xbf8cebc6, 0xc0ec1704,
        0xc0582ec5, 0xc04525b0, 0x3e90e631, 0x40de507d, 0x3fd7bf1e,
        0x3f541786, 0x3f010258, 0x3f40e229, 0xc00262b5, 0xc00b028b,
        0xc021d6a5, 0x40759f90, 0xc02fb616, 0x409e1064, 0xc007a200,
        0x3fa1a8d9, 0x3f92553a, 0x3de15423, 0xbf8b5c69, 0xc07bfa76,
        0xc008406d, 0x404b954a, 0xc02f0893, 0x40a74bf2, 0xbfedecfe,
    ]
    static let fastest: [UInt32] = [
        0xbfd8c0aa, 0xbfc9d034, 0xc0621572, 0x3ed16ad6, 0xbfd4ee39,
        0x40c181bb, 0xc0417e6d, 0x408ad569, 0x3f943270, 0x3f594d6d,
        0x400c7162, 0x3f1a78bf, 0x3e963c63, 0xbf8cebc4, 0xc0ec1701,
        0xc0582ec3, 0xc04525b4, 0x3e90e63f, 0x40de507c, 0x3fd7bf1d,
        0x3f541792, 0x3f010249, 0x3f40e23e, 0xc00262b4, 0xc00b028a,
        0xc021d6a7, 0x40759f93, 0xc02fb618, 0x409e1063, 0xc007a202,
        0x3fa1a8dc, 0x3f92553a, 0x3de1540a, 0xbf8b5c62, 0xc07bfa7c,
        0xc008406d, 0x404b954b, 0xc02f0890, 0x40a74bf6, 0xbfedecff,
    ]
}
