import Foundation
import Testing
import Training

/// IDX files are read by what their header says: no more bytes than its dimensions need, and
/// no dimensions whose product is more than the reader takes. zlib reads a file that is not
/// gzip as it is, so these tests write the IDX bytes plainly under the .gz name.
@Suite struct IDXFileTests {
    static func write(_ dimensions: [UInt32], data: Int) throws -> (path: String, remove: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var bytes: [UInt8] = [0, 0, 0x08, UInt8(dimensions.count)]
        for d in dimensions { bytes += [UInt8(d >> 24), UInt8(d >> 16 & 0xff), UInt8(d >> 8 & 0xff), UInt8(d & 0xff)] }
        bytes += [UInt8](repeating: 7, count: data)
        let path = folder.appendingPathComponent("t10k-images-idx3-ubyte.gz").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, { try? FileManager.default.removeItem(at: folder) })
    }

    @Test func aFileReadsAsItsHeaderSays() throws {
        let file = try Self.write([3, 28, 28], data: 3 * 784)
        defer { file.remove() }
        let read = try IDXFile(gzipPath: file.path)
        #expect(read.dimensions == [3, 28, 28] && read.bytes.count == 3 * 784 && read.bytes.allSatisfy { $0 == 7 })
    }

    /// The whole file was expanded into memory before its size was compared with the header's:
    /// 11 MB of gzip holding the test images and 1.5 GB of zeros after them took 2.1 GB, and
    /// more zeros would have taken all memory. Now the bytes after the last one the
    /// dimensions need are not read.
    @Test func dataPastWhatTheDimensionsNeedIsRefusedUnread() throws {
        let file = try Self.write([2, 28, 28], data: 2 * 784 + (1 << 20))
        defer { file.remove() }
        #expect(throws: DatasetError.malformed(path: file.path, reason: "dimensions [2, 28, 28] need 1568 bytes, file holds more")) {
            try IDXFile(gzipPath: file.path)
        }
    }

    /// Training is built without overflow checks: the product of three sizes of 2^32 - 1
    /// wrapped around, and the message gave a number no file of that header needs.
    @Test func dimensionsBeyondWhatTheReaderTakesAreRefused() throws {
        let huge = try Self.write([0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF], data: 0)
        defer { huge.remove() }
        #expect(throws: DatasetError.malformed(path: huge.path, reason: "dimensions [4294967295, 4294967295, 4294967295] need "
                                               + "more than the 1024 MB this reader takes")) {
            try IDXFile(gzipPath: huge.path)
        }
        let claimed = try Self.write([1_280_000, 28, 28], data: 10)
        defer { claimed.remove() }
        #expect(throws: DatasetError.malformed(path: claimed.path, reason: "dimensions [1280000, 28, 28] need 1003520000 bytes, file holds 10")) {
            try IDXFile(gzipPath: claimed.path)
        }
    }
}
