import Foundation

/// Where the built `nanashi` executable is: next to the test bundle, in the build's products
/// folder.
public enum NanashiExecutable {
    public static let url: URL = {
        var folder = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folder = bundle.bundleURL.deletingLastPathComponent()
        }
        let candidates = [
            folder.appendingPathComponent("nanashi"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "nanashi"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()
}
