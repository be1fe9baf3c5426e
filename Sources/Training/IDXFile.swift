import CZlib
import Files
import Foundation

/// The IDX files of MNIST and Fashion-MNIST, gzip-compressed as the Debian
/// package `dataset-fashion-mnist` ships them.
///
/// Format: a 4-byte magic (`0x0000_08_NN`, NN the number of dimensions, 08 for
/// unsigned bytes), NN big-endian 32-bit sizes, then the bytes row-major.
public struct IDXFile: Sendable {
    public let dimensions: [Int]
    public let bytes: [UInt8]

    /// The most data bytes one file may hold: 20 times Fashion-MNIST's training images (47 MB).
    public static let maximumBytes = 1 << 30

    /// Reads the header first and then exactly the bytes its dimensions need, so memory
    /// follows what the header says (at most `maximumBytes`), not what the file expands to:
    /// 11 MB of gzip holding the test images and 1.5 GB of zeros after them took 2.1 GB
    /// before it was refused for its size, and more zeros would have taken all memory.
    public init(gzipPath path: String) throws(DatasetError) {
        let file = try Self.open(path)
        defer { gzclose(file) }
        let magic = try Self.read(file, count: 4, path: path)
        guard magic.count == 4, magic[0] == 0, magic[1] == 0, magic[2] == 0x08 else {
            throw .malformed(path: path, reason: "not an IDX file of unsigned bytes (wrong magic)")
        }
        let rank = Int(magic[3])
        let sizes = try Self.read(file, count: 4 * rank, path: path)
        guard rank >= 1, sizes.count == 4 * rank else {
            throw .malformed(path: path, reason: "header is shorter than its \(rank) dimensions")
        }
        var dimensions: [Int] = []
        for d in 0..<rank {
            let p = 4 * d
            dimensions.append(Int(sizes[p]) << 24 | Int(sizes[p + 1]) << 16 | Int(sizes[p + 2]) << 8 | Int(sizes[p + 3]))
        }
        // Multiplied with overflow reported: this module is built without overflow checks.
        var expected = 1
        for dimension in dimensions {
            let (product, overflow) = expected.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= Self.maximumBytes else {
                throw .malformed(path: path, reason: "dimensions \(dimensions) need more than the \(Self.maximumBytes >> 20) MB "
                                 + "this reader takes")
            }
            expected = product
        }
        let bytes = try Self.read(file, count: expected, path: path)
        guard bytes.count == expected else {
            throw .malformed(path: path, reason: "dimensions \(dimensions) need \(expected) bytes, file holds \(bytes.count)")
        }
        guard try Self.read(file, count: 1, path: path).isEmpty else {
            throw .malformed(path: path, reason: "dimensions \(dimensions) need \(expected) bytes, file holds more")
        }
        self.dimensions = dimensions
        self.bytes = bytes
    }

    private static func open(_ path: String) throws(DatasetError) -> gzFile {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        // Opened as a regular file first: a FIFO in its place is refused, not waited on.
        let opened: Int32
        do {
            opened = try RegularFile.open(path).descriptor
        } catch {
            throw .malformed(path: path, reason: "cannot open: \(error.reason)")
        }
        guard let file = gzdopen(opened, "rb") else {
            close(opened)
            throw .malformed(path: path, reason: "cannot open")
        }
        return file
    }

    /// Up to `count` bytes from the file's current place: fewer only at its end. Memory grows
    /// with the bytes read, not with `count`: a header of 50 bytes may claim a gigabyte.
    private static func read(_ file: gzFile, count: Int, path: String) throws(DatasetError) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(count, 1 << 24))
        while output.count < count {
            let wanted = UInt32(min(count - output.count, chunk.count))
            let read = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, wanted) }
            if read < 0 { throw .malformed(path: path, reason: "gzip data is corrupt") }
            if read == 0 { break }
            output += chunk[0..<Int(read)]
        }
        return output
    }
}

public enum DatasetError: Error, Equatable, CustomStringConvertible {
    case missing(path: String)
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            "\(path) not found: install the Debian package dataset-fashion-mnist (make deps) or pass --data DIR"
        case .malformed(let path, let reason): "\(path): \(reason)"
        }
    }
}
