import Foundation
import PackagePlugin

/// Turns the package's `migrations/NNNN_name.sql` files (SQLite) and
/// `migrations/postgresql/NNNN_name.sql` files into one Swift source file
/// compiled into the target, so each engine's schema travels inside the binary.
/// `migrations/` stays the schema's only source; nothing generated is committed.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "migrations")
        let sqlite = try sqlFiles(in: folder)
        let postgresql = try sqlFiles(in: folder.appending(path: "postgresql"))
        let inputs = sqlite + postgresql
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) migrations into \(target.name)",
                executable: try context.tool(named: "EmbedMigrationsTool").url,
                arguments: [output.path] + sqlite.map(\.path) + ["--postgresql"] + postgresql.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    private func sqlFiles(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
            .map { folder.appending(path: $0) }
    }
}
