//! The words a round's text is drawn from.
//!
//! A thousand common English words, lower case a–z only, roughly most common first.
//! Source: compiled by the typepper authors for this project from everyday English (no
//! upstream list was copied); licensed with the rest of typepper, MIT OR Apache-2.0.
//! The list is part of the rules: changing a word changes what every seed plays out to,
//! so it is frozen for [`crate::VERSION`] 1 (a test pins its length and a checksum).

/// The VERSION 1 word list.
#[rustfmt::skip]
pub const WORDS: [&str; 1000] = [
    "the", "be", "to", "of", "and", "a", "in", "that", "have", "it", "for", "not", "on",
    "with", "he", "as", "you", "do", "at", "this", "but", "his", "by", "from", "they", "we",
    "say", "her", "she", "or", "an", "will", "my", "one", "all", "would", "there", "their",
    "what", "so", "up", "out", "if", "about", "who", "get", "which", "go", "me", "when",
    "make", "can", "like", "time", "no", "just", "him", "know", "take", "people", "into",
    "year", "your", "good", "some", "could", "them", "see", "other", "than", "then", "now",
    "look", "only", "come", "its", "over", "think", "also", "back", "after", "use", "two",
    "how", "our", "work", "first", "well", "way", "even", "new", "want", "because", "any",
    "these", "give", "day", "most", "us", "is", "are", "was", "were", "been", "has", "had",
    "did", "said", "made", "went", "got", "came", "saw", "took", "gave", "found", "told",
    "asked", "felt", "left", "kept", "put", "brought", "began", "seemed", "turned", "called",
    "tried", "moved", "lived", "showed", "heard", "played", "ran", "set", "meant", "stood",
    "held", "sat", "lost", "paid", "met", "led", "read", "grew", "fell", "sent", "built",
    "spoke", "wrote", "man", "woman", "child", "world", "life", "hand", "part", "place",
    "case", "week", "company", "system", "program", "question", "government", "number",
    "night", "point", "home", "water", "room", "mother", "area", "money", "story", "fact",
    "month", "lot", "right", "study", "book", "eye", "job", "word", "business", "issue",
    "side", "kind", "head", "house", "service", "friend", "father", "power", "hour", "game",
    "line", "end", "member", "law", "car", "city", "community", "name", "president", "team",
    "minute", "idea", "kid", "body", "information", "school", "face", "others", "level",
    "office", "door", "health", "person", "art", "war", "history", "party", "result", "change",
    "morning", "reason", "research", "girl", "guy", "moment", "air", "teacher", "force",
    "education", "old", "great", "big", "high", "small", "large", "long", "young", "important",
    "few", "public", "bad", "same", "able", "last", "late", "hard", "major", "better",
    "economic", "strong", "possible", "whole", "free", "military", "true", "federal",
    "international", "full", "special", "easy", "clear", "recent", "certain", "personal",
    "open", "red", "difficult", "available", "likely", "short", "single", "medical", "current",
    "wrong", "private", "past", "foreign", "fine", "common", "poor", "natural", "significant",
    "similar", "hot", "dead", "central", "happy", "serious", "ready", "simple", "physical",
    "general", "environmental", "financial", "blue", "democratic", "dark", "various", "entire",
    "close", "legal", "religious", "cold", "final", "main", "green", "nice", "huge", "popular",
    "traditional", "cultural", "very", "often", "really", "almost", "never", "always",
    "sometimes", "together", "already", "still", "yet", "again", "once", "soon", "later",
    "perhaps", "maybe", "quite", "rather", "enough", "far", "away", "down", "off", "here",
    "where", "why", "ever", "each", "every", "both", "either", "neither", "much", "many",
    "more", "less", "least", "find", "tell", "ask", "seem", "feel", "try", "leave", "call",
    "keep", "let", "begin", "help", "talk", "turn", "start", "show", "hear", "play", "run",
    "move", "live", "believe", "hold", "bring", "happen", "write", "provide", "sit", "stand",
    "lose", "pay", "meet", "include", "continue", "learn", "lead", "understand", "watch",
    "follow", "stop", "create", "speak", "allow", "add", "spend", "grow", "walk", "win",
    "offer", "remember", "love", "consider", "appear", "buy", "wait", "serve", "die", "send",
    "expect", "build", "stay", "fall", "cut", "reach", "kill", "remain", "suggest", "raise",
    "pass", "sell", "require", "report", "decide", "pull", "between", "under", "without",
    "through", "during", "before", "against", "among", "around", "since", "across", "behind",
    "beyond", "toward", "upon", "within", "along", "near", "above", "below", "inside",
    "outside", "until", "while", "though", "although", "unless", "whether", "table", "chair",
    "window", "street", "road", "river", "mountain", "tree", "flower", "garden", "field",
    "forest", "sea", "ocean", "island", "beach", "sky", "sun", "moon", "star", "cloud", "rain",
    "snow", "wind", "storm", "fire", "stone", "rock", "sand", "grass", "leaf", "wood", "paper",
    "glass", "metal", "gold", "silver", "iron", "steel", "plastic", "cloth", "dog", "cat",
    "horse", "bird", "fish", "cow", "pig", "sheep", "chicken", "mouse", "lion", "tiger",
    "bear", "wolf", "fox", "rabbit", "snake", "duck", "goat", "deer", "bread", "milk",
    "cheese", "butter", "egg", "meat", "rice", "fruit", "apple", "orange", "banana", "lemon",
    "sugar", "salt", "pepper", "soup", "cake", "tea", "coffee", "wine", "beer", "juice",
    "dinner", "lunch", "breakfast", "food", "meal", "kitchen", "plate", "cup", "bowl", "knife",
    "fork", "spoon", "bottle", "yellow", "black", "white", "brown", "gray", "pink", "purple",
    "three", "four", "five", "six", "seven", "eight", "nine", "ten", "hundred", "thousand",
    "million", "second", "third", "half", "double", "monday", "friday", "sunday", "today",
    "tomorrow", "yesterday", "weekend", "summer", "winter", "spring", "autumn", "season",
    "arm", "leg", "foot", "finger", "heart", "blood", "bone", "skin", "hair", "mouth", "nose",
    "ear", "tooth", "neck", "shoulder", "knee", "brain", "music", "song", "dance", "movie",
    "film", "picture", "photo", "color", "sound", "voice", "noise", "light", "shadow", "shop",
    "store", "market", "bank", "hotel", "hospital", "church", "station", "airport", "library",
    "museum", "theater", "park", "bridge", "tower", "wall", "floor", "roof", "stairs",
    "corner", "train", "plane", "ship", "boat", "bus", "bike", "truck", "wheel", "engine",
    "machine", "computer", "phone", "screen", "keyboard", "button", "letter", "message",
    "email", "page", "king", "queen", "prince", "army", "soldier", "enemy", "battle", "peace",
    "victory", "danger", "safety", "brother", "sister", "son", "daughter", "husband", "wife",
    "uncle", "aunt", "baby", "family", "parent", "doctor", "nurse", "lawyer", "farmer",
    "driver", "writer", "artist", "singer", "player", "student", "worker", "manager", "leader",
    "owner", "sad", "angry", "afraid", "proud", "brave", "calm", "quiet", "loud", "fast",
    "slow", "quick", "bright", "clean", "dirty", "dry", "wet", "soft", "heavy", "warm", "cool",
    "sweet", "sour", "bitter", "fresh", "empty", "busy", "rich", "cheap", "deep", "wide",
    "narrow", "thick", "thin", "sharp", "smooth", "rough", "flat", "round", "square",
    "straight", "answer", "problem", "plan", "rule", "test", "chance", "choice", "class",
    "course", "dream", "effort", "energy", "example", "experience", "form", "future", "group",
    "heat", "interest", "key", "list", "matter", "method", "mind", "model", "nature", "order",
    "pain", "pattern", "piece", "plant", "position", "pressure", "price", "process", "purpose",
    "quality", "race", "range", "rate", "record", "region", "role", "sense", "shape", "sign",
    "size", "skill", "space", "stage", "step", "structure", "style", "subject", "success",
    "support", "surface", "task", "term", "theory", "thing", "thought", "top", "trade",
    "truth", "type", "unit", "value", "view", "weight", "accept", "achieve", "act", "admit",
    "agree", "aim", "argue", "arrive", "attack", "avoid", "break", "burn", "carry", "catch",
    "cause", "check", "choose", "claim", "climb", "collect", "compare", "complete", "contain",
    "control", "cook", "copy", "count", "cover", "cross", "cry", "deal", "deliver", "depend",
    "describe", "design", "destroy", "develop", "discover", "discuss", "draw", "dress",
    "drink", "drive", "drop", "eat", "enjoy", "enter", "escape", "explain", "fail", "fill",
    "finish", "fit", "fix", "fly", "forget", "gain", "gather", "hang", "hate", "hide", "hit",
    "hope", "hurt", "imagine", "improve", "increase", "invite", "join", "jump", "kick", "kiss",
    "knock", "laugh", "lay", "lie", "lift", "listen", "mark", "marry", "miss", "mix", "notice",
    "obtain", "own", "pick", "pour", "prefer", "prepare", "press", "prevent", "produce",
    "promise", "protect", "prove", "push", "realize", "receive", "reduce", "refuse", "relax",
    "repeat", "reply", "rest", "return", "ride", "ring", "rise", "roll", "rush", "save",
    "score", "search", "shake", "share", "shoot", "shout", "shut", "sing", "sink", "sleep",
    "slide", "smell", "smile", "solve", "sort", "steal", "stick", "strike", "suffer", "suit",
    "supply", "swim", "teach", "tear", "thank", "throw", "touch", "travel", "treat", "trust",
    "visit", "wake", "wash", "wear", "wish", "wonder", "worry", "ahead", "alone", "beside",
    "early", "nearly", "quickly", "rarely", "simply", "slowly", "suddenly", "usually",
    "center", "chapter", "circle", "coast", "country", "couple", "crowd", "culture", "degree",
    "detail", "direction", "distance", "dollar", "drawing", "edge", "election", "element",
    "evening", "event", "exchange", "factor", "fashion", "feature", "figure", "function",
    "goal", "ground", "growth", "guest", "habit", "hall", "height", "hole", "image",
    "industry", "journey", "judge", "kingdom", "knowledge",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_unique_lower_case_ascii() {
        let mut seen = std::collections::HashSet::new();
        for w in WORDS {
            assert!(
                !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()),
                "{w:?}"
            );
            assert!(seen.insert(w), "{w:?} twice");
        }
    }

    #[test]
    fn the_list_is_frozen() {
        // FNV-1a over the words, each followed by a newline.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in WORDS.iter().flat_map(|w| w.bytes().chain([b'\n'])) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        assert_eq!(h, CHECKSUM, "the VERSION 1 word list changed");
    }

    const CHECKSUM: u64 = 0xc4c0d77dfed7464a;
}
