public enum BoardArchiveVersion { public static let string = "0.1.0" }
