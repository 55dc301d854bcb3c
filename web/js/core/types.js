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
 * @property {string | null} waiting_since
 */

/**
 * @typedef {object} Clock
 * @property {string} mode
 * @property {number} seconds
 * @property {number} increment
 * @property {string} on_expiry
 * @property {number | null} [inactivity_days]
 * @property {SeatClock[]} seats
 */

/**
 * @typedef {object} GameResult
 * @property {number[]} scores
 * @property {number[]} winners
 * @property {number[]} resigned
 * @property {number[]} forfeited
 * @property {{ [key: string]: any }} details
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
 * @property {{ [key: string]: any }} data
 */

/**
 * @typedef {object} GameOption
 * @property {string} name
 * @property {string} type
 * @property {string} [label]
 * @property {string} description
 * @property {Scalar} default
 * @property {Scalar[] | null} [allowed]
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

export {};
