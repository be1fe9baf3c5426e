import COpenBLAS
import CPNG
import CSQLite
import CTurboJPEG
import CZlib
import CCrypto
import CHeif
import CWebP
import Testing

/// Each system library links and answers a real call.
@Suite struct SystemLibraryTests {
    @Test func sqliteOpensAnInMemoryDatabase() {
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_changes(db) == 1)
        sqlite3_close(db)
    }

    @Test func libpngReportsItsVersion() {
        #expect(png_access_version_number() >= 10600)
    }

    @Test func turboJPEGCreatesACompressor() {
        let handle = tjInitCompress()
        #expect(handle != nil)
        tjDestroy(handle)
    }

    @Test func openBLASMultipliesMatrices() {
        let a: [Float] = [1, 2, 3, 4]   // 2x2
        let b: [Float] = [5, 6, 7, 8]
        var c = [Float](repeating: 0, count: 4)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, a, 2, b, 2, 0, &c, 2)
        #expect(c == [19, 22, 43, 50])
    }

    @Test func libheifHasDecodersForHEVCAndAV1() {
        #expect(heif_get_version_number_major() == 1 && heif_get_version_number_minor() >= 15)
        #expect(heif_have_decoder_for_format(heif_compression_HEVC) != 0)
        #expect(heif_have_decoder_for_format(heif_compression_AV1) != 0)
    }

    @Test func libwebpReportsItsDecoderVersion() {
        #expect(WebPGetDecoderVersion() >= 0x010200)
        #expect(WebPGetDemuxVersion() >= 0x010200)
    }

    @Test func zlibRoundTripsData() {
        let input = [UInt8](repeating: 7, count: 1000)
        var compressed = [UInt8](repeating: 0, count: 100)
        var compressedLength = uLongf(compressed.count)
        #expect(compress(&compressed, &compressedLength, input, uLong(input.count)) == Z_OK)
        var output = [UInt8](repeating: 0, count: 1000)
        var outputLength = uLongf(output.count)
        #expect(uncompress(&output, &outputLength, compressed, compressedLength) == Z_OK)
        #expect(output == input)
    }
}

@Suite struct CryptoLibraryTests {
    /// FIPS 180-2's first example: SHA-256("abc").
    @Test func opensslHashesABC() {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let input = Array("abc".utf8)
        #expect(EVP_Digest(input, input.count, &digest, &length, EVP_sha256(), nil) == 1)
        let hex = digest.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
