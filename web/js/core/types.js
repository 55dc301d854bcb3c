// @ts-check
// The shapes the client reads from the public API (openapi/openapi.json has the full documents), for
// the type check only: modules import them in JSDoc, e.g. `@param {import("../core/types.js").GameView} game`.
// A game's own view, choices and static data differ per game type; only its renderer reads inside them.

/** @typedef {null | boolean | number | string} Scalar */

/**
 * A move as the API lists it, posted back verbatim (each game's fields: action, x, card, ...).
 * @typedef {{ [key: string]: any }} Choice
 */

/**
 * One game's view of its state for the viewer (GameView in each game's schema): read by its renderer.
 * @typedef {{ [key: string]: any }} GameState
 */

/**
 * A move half made on the board, kept while the same moves stay open: which target was clicked
 * (`pending`), where the tile goes and how it is turned (`at`, `rot`), which cards are picked.
 * @typedef {object} HalfMadeMove
 * @property {string} [pending]
 * @property {string} [at]
 * @property {number} [rot]
 * @property {string[]} [picked]
 */

/**
 * A game type's static data (cards, tiles, buildings, texts, board geometry) in the page's language.
 * @typedef {{ [key: string]: any }} StaticData
 */

/**
 * @typedef {object} Seat
 * @property {number} seat
 * @property {string} name
 * @property {string | null} bot
 * @property {boolean} confirmed
 * @property {boolean} connected
 * @property {string | null} stand_in
 */

/**
 * @typedef {object} Decision
 * @property {string} kind
 * @property {string} prompt
 * @property {number[]} seats
 * @property {number[]} sealed
 * @property {boolean} simultaneous
 * @property {number | null} [decision_version]
 * @property {Choice | null} [your_sealed_choice]
 * @property {{ [key: string]: any }} data
 */

/**
 * @typedef {object} SeatClock
 * @property {number} seat
 * @property {string | null} deadline
 * @property {number | null} remaining_seconds
 * @property {number} used_seconds
 * @property {number} [lapses] lapses in a row (a stand-in bot played the decision)
 * @property {string | null} waiting_since
 */

/**
 * @typedef {object} Clock
 * @property {string} mode
 * @property {number} seconds
 * @property {number} increment
 * @property {string} on_expiry
 * @property {number | null} [inactivity_days]
 * @property {number | null} [lapses_before_stand_in] lapses in a row after which the stand-in keeps the seat
 * @property {SeatClock[]} seats
 */

/**
 * @typedef {object} GameResult
 * @property {number[]} scores
 * @property {number[]} winners
 * @property {number[]} resigned
 * @property {number[]} forfeited
 * @property {{ [key: string]: unknown }} details
 */

/**
 * @typedef {object} UnratedReason
 * @property {string} code
 * @property {string} text
 */

/**
 * A game as GET /v1/games/{id} shows it to one viewer.
 * @typedef {object} GameView
 * @property {string} id
 * @property {string} type
 * @property {"lobby" | "in_progress" | "finished" | "aborted"} status
 * @property {number} version
 * @property {Seat[]} seats
 * @property {number} max_players
 * @property {GameState | null} state
 * @property {Decision | null} decision
 * @property {GameResult | null} result
 * @property {boolean} private
 * @property {{ seat: number | null }} viewer
 * @property {Clock | null} clock
 * @property {string | null} rematch_id
 * @property {string | null} rematch_of
 * @property {boolean} rated
 * @property {UnratedReason[]} unrated_reasons
 * @property {TakeBacks} [takebacks]
 */

/**
 * Take-backs in one game, as the viewer sees them.
 * @typedef {object} TakeBacks
 * @property {boolean} allowed
 * @property {boolean} can_take_back the viewer's seat may take back (or ask to) now
 * @property {{ seat: number, waiting: number[], accepted: number[] } | null} request
 */

/**
 * @typedef {object} PendingChoices
 * @property {Choice[]} choices
 * @property {number | null} decision_version
 * @property {number} version
 */

/**
 * An event of a game's log (REST history or the live subscription).
 * @typedef {object} GameEvent
 * @property {number} seq
 * @property {string} type
 * @property {{ [key: string]: unknown }} data
 */

/**
 * A game as one viewer saw it after event `at` (GET /v1/games/{id}/replay).
 * @typedef {object} Replay
 * @property {string} game_id
 * @property {string} game_type
 * @property {number} at
 * @property {number} last_seq
 * @property {number | null} seat whose view (null: a spectator's)
 * @property {string} phase
 * @property {GameState | null} state
 * @property {GameEvent[]} events every event up to `at`, as that viewer saw it
 * @property {number[]} moves the events after which the board changed: the replay's steps
 */

/**
 * @typedef {object} GameOption
 * @property {string} name
 * @property {string} type
 * @property {string} [label]
 * @property {string} description
 * @property {Scalar} default
 * @property {Scalar[] | null} [allowed]
 * @property {string[] | null} [allowed_labels] what each allowed value is called, in the page's language
 * @property {boolean} [verified]
 */

/**
 * @typedef {object} GameType
 * @property {string} slug
 * @property {string} name
 * @property {string} description
 * @property {number} min_players
 * @property {number} max_players
 * @property {GameOption[]} options
 * @property {{ option: string, value: Scalar, max_players: number }[]} player_limits
 */

/**
 * @typedef {object} BotLevel
 * @property {string} level
 * @property {string} name
 * @property {string} description
 */

/**
 * @typedef {GameType & {
 *   language: string,
 *   bot_levels: BotLevel[],
 *   log_templates: { [type: string]: string },
 *   data: StaticData | null,
 * }} GameTypeDetail
 */

/**
 * @typedef {object} Rating
 * @property {number} rating
 * @property {boolean} provisional
 */

/**
 * A player's rating in one game type (GET /v1/players/{id}/profile).
 * @typedef {Rating & { game_type: string, games: number, mu: number, sigma: number }} PlayerRating
 */

/**
 * A line of a leaderboard: a player or a bot level.
 * `established`: a bot level, or a player with 3 rated games against established opponents (ranked first).
 * @typedef {PlayerRating & { kind: "player" | "bot", subject: string, name: string, rank: number, established: boolean, finishing: Finishing | null }} Standing
 */

/** @typedef {{ game_type: string, entries: Standing[], next_cursor: string | null }} LeaderboardPage */

/**
 * @typedef {object} RatingChange
 * @property {string} at
 * @property {string} game_id
 * @property {string} game_type
 * @property {number} rank
 * @property {number} rating
 * @property {number} rating_before
 */

/**
 * @typedef {object} PlayedGame
 * @property {string} at
 * @property {string} game_id
 * @property {string} game_type
 * @property {string} outcome
 * @property {number} rank
 * @property {boolean} rated
 */

/**
 * @typedef {object} Finishing
 * @property {number | null} rate
 * @property {number} finished
 * @property {number} resigned
 * @property {number} timed_out
 */

/**
 * @typedef {object} Profile
 * @property {string} id
 * @property {string} name
 * @property {Finishing} finishing
 * @property {PlayerRating[]} ratings
 * @property {RatingChange[]} history
 * @property {PlayedGame[]} recent_games
 */

/**
 * A seat's rating at one table (GET /v1/games/{id}/ratings).
 * @typedef {object} TableSeat
 * @property {number} seat
 * @property {string | null} subject a player's id, or "bot:<level>"
 * @property {Rating | null} rating
 */

/**
 * An open game in the lobby's list.
 * @typedef {object} GameSummary
 * @property {string} id
 * @property {string} type
 * @property {number} players
 * @property {number} max_players
 * @property {number} age_seconds
 * @property {{ name: string }[]} seats
 * @property {{ mode: string, seconds: number, increment: number }} clock
 * @property {{ name: string, finishing_rate: number | null } | null} creator
 * @property {boolean} rated
 * @property {UnratedReason[]} unrated_reasons
 */

/**
 * One of the games of the browser's player identity (GET /v1/players/me/games).
 * @typedef {object} MyGame
 * @property {string} game_id
 * @property {string} type
 * @property {number} seat
 * @property {"lobby" | "in_progress" | "finished" | "aborted"} status
 * @property {boolean} your_turn
 * @property {string} joined_at
 */

export {};
