import CommandLineKit
import Foundation
import Server
import Wardrobe

/// `wardrobe serve`: the catalogue's pages in a browser, until Ctrl-C.
struct ServeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "serve",
        abstract: "Show the catalogue in a browser: gallery, image pages, review and stats; correct labels there.",
        discussion: """
            Binds 127.0.0.1 unless --host says otherwise. To reach it from another machine,
            forward a port over SSH (ssh -L 8421:127.0.0.1:8421 HOST) and open
            http://localhost:8421/ there, rather than binding 0.0.0.0. Corrections made in
            the pages are stored as 'wardrobe label' stores them (command 'serve').
            Ctrl-C or SIGTERM stops it after the requests in flight are answered.
            --candidate MODEL first classifies every image with MODEL, storing nothing (as
            'reclassify --dry-run' does), and serves the images whose label it would change
            at /changes, to look through before 'wardrobe model use MODEL'.

            Exit status: 0 after a clean stop, 1 when the catalogue cannot be opened or the
            port cannot be bound, 64 for wrong usage.
            """)

    @OptionGroup var catalogue: CatalogueOptions
    @Option(name: "--host", value: "ADDRESS", help: "The IP address to listen on (default 127.0.0.1: this machine only).")
    var host = "127.0.0.1"
    @Option(name: "--port", value: "PORT", help: "The port (default 8421; 0 picks a free one).", in: 0...65535)
    var port = 8421
    @Flag(name: "--read-only", help: "Serve the pages without the buttons that change labels.")
    var readOnly: Bool
    @Flag(name: "--open", help: "Open the gallery in the default browser (xdg-open).")
    var open: Bool
    @Option(name: "--candidate", value: "MODEL", help: "Also show, at /changes, the images whose label this model would change.",
            transform: ArgumentValues.modelPath)
    var candidate: String?

    func run(_ console: Console) throws -> ExitStatus {
        // Opened now: a missing or foreign file is said before the server starts.
        let catalogue = try console.setup.openCatalogue(explicit: self.catalogue.path, mode: readOnly ? .readOnly : .readWrite,
                                                        sharedByThreads: true)
        let path = catalogue.path
        let changes = try candidate.map { model in
            try catalogue.reclassify(ReclassifyRequest(jobs: ProcessInfo.processInfo.activeProcessorCount, dryRun: true,
                                                       listsChanges: true),
                                     classifier: catalogue.classifier(explicit: model)) { _ in }
        }
        let threads = max(2, ProcessInfo.processInfo.activeProcessorCount)
        // Larger views decode whole photos: never on every thread, so pages keep one.
        let site = WardrobeSite(catalogue: catalogue, boundHost: host, readOnly: readOnly, candidate: changes,
                                viewBudget: ViewBudget(views: min(2, threads - 1)))
        TerminationSignals.block()
        let server = try HTTPServer(host: host, port: port, limits: HTTPServer.Limits(threads: threads), handler: site)
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let url = "http://\(shownHost):\(server.port)/"
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            let reach = readOnly ? "see the catalogue" : "see the catalogue and change its labels"
            console.warning("listening on \(host): anyone who can reach this machine on port \(server.port) can "
                            + reach + ". An SSH tunnel to 127.0.0.1 is safer.")
        }
        console.output("Serving \(path)\(readOnly ? " (read-only)" : "") at \(url)")
        if let changes {
            console.output("What \(changes.model) would change (\(changes.changes?.count ?? 0) images): \(url)changes")
        }
        console.output("Press Ctrl-C to stop.")
        if open { ServeCommand.openBrowser(url, console: console) }
        let signal = TerminationSignals.wait()
        console.info("stopping (\(signal == SIGINT ? "Ctrl-C" : "SIGTERM")): answering the requests in flight")
        server.stop()
        return .success
    }

    private static func openBrowser(_ url: String, console: Console) {
        let opener = Process()
        opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        opener.arguments = ["xdg-open", url]
        do { try opener.run() } catch { console.warning("cannot open a browser (\(error)); open \(url) yourself") }
    }
}
