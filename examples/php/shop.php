<?php
// The shop's shared code: settings, the SQLite store, the catalogue and the Pay-Checkout-Signature check.
// Outside public/, so `php -S` never serves it.
declare(strict_types=1);

const STORE_NAME = 'Café La Montaña';
const CART_LIFETIME_S = 24 * 3600;
/** How far a signature's `t` may be from now, either way. */
const SIGNATURE_TOLERANCE_S = 300;

/** What the shop sells: whole pesos, as the checkout takes them. */
const PRODUCTS = [
    'cafe' => ['name' => 'Café de Huila, 500 g', 'price' => 38000],
    'panela' => ['name' => 'Panela orgánica, 1 kg', 'price' => 9500],
];

function setting(string $name, ?string $default = null): string
{
    $value = getenv($name);
    if ($value === false || $value === '') {
        if ($default !== null) return $default;
        http_response_code(500);
        error_log("shop: set $name");
        exit("The shop is not configured: set $name.\n");
    }
    return $value;
}

/** The secrets `pay-checkout serve` signs with (PAY_CHECKOUT_APP_SECRET, a comma list while one rotates). */
function app_secrets(): array
{
    return array_values(array_filter(array_map('trim', explode(',', setting('PAY_CHECKOUT_APP_SECRET')))));
}

function db(): PDO
{
    static $pdo = null;
    if ($pdo) return $pdo;
    $path = setting('SHOP_DATABASE', __DIR__ . '/data/shop.sqlite');
    if (!is_dir(dirname($path))) mkdir(dirname($path), 0700, true);
    $pdo = new PDO('sqlite:' . $path, null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $pdo->exec('PRAGMA busy_timeout = 5000');
    $pdo->exec('PRAGMA journal_mode = WAL');
    $pdo->exec('CREATE TABLE IF NOT EXISTS carts (
        hash TEXT PRIMARY KEY,
        items TEXT NOT NULL,
        amount INTEGER NOT NULL,
        description TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        paid_at TEXT,
        paid_by_event TEXT,
        id_order INTEGER,
        gateway TEXT
    )');
    // One row per notice the shop acted on: the primary key is what makes a redelivery harmless.
    $pdo->exec('CREATE TABLE IF NOT EXISTS notices (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        link TEXT NOT NULL,
        received_at TEXT NOT NULL,
        body TEXT NOT NULL
    )');
    // Every signed delivery and what the shop answered, retries included: what to look at when one goes wrong.
    $pdo->exec('CREATE TABLE IF NOT EXISTS deliveries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL,
        link TEXT NOT NULL,
        answered INTEGER NOT NULL,
        at TEXT NOT NULL
    )');
    return $pdo;
}

function now_iso(int $at = 0): string
{
    return gmdate('Y-m-d\TH:i:s\Z', $at ?: time());
}

function find_cart(string $hash): ?array
{
    $query = db()->prepare('SELECT * FROM carts WHERE hash = ?');
    $query->execute([$hash]);
    return $query->fetch(PDO::FETCH_ASSOC) ?: null;
}

/** A cart from the form's quantities, or null when it holds nothing. */
function create_cart(array $quantities): ?array
{
    $items = [];
    $amount = 0;
    foreach (PRODUCTS as $id => $product) {
        $quantity = (int) ($quantities[$id] ?? 0);
        if ($quantity < 1) continue;
        $quantity = min($quantity, 20);
        $items[] = ['product' => $id, 'quantity' => $quantity];
        $amount += $quantity * $product['price'];
    }
    if (!$items) return null;
    $description = implode(', ', array_map(fn ($item) => $item['quantity'] . ' × ' . PRODUCTS[$item['product']]['name'], $items));
    // The hash is the cart's name in the checkout's URLs: random, so nobody can guess another buyer's cart.
    $hash = bin2hex(random_bytes(12));
    db()->prepare('INSERT INTO carts (hash, items, amount, description, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        ->execute([$hash, json_encode($items), $amount, $description, now_iso(), now_iso(time() + CART_LIFETIME_S)]);
    return find_cart($hash);
}

/** The cart as the link record `pay-checkout serve` asks for. */
function link_record(array $cart): array
{
    $expired = strtotime($cart['expires_at']) <= time();
    return [
        'amount' => (int) $cart['amount'],
        'description' => $cart['description'],
        'store_name' => STORE_NAME,
        'currency' => 'COP',
        'status' => $cart['paid_at'] ? 'paid' : ($expired ? 'expired' : 'active'),
        'expires_at' => $cart['expires_at'],
    ];
}

/**
 * Whether `Pay-Checkout-Signature: t=…,v1=…` signs `$signedText` with one of `$secrets`, within the tolerance.
 * The signed text is "<t>.<raw body>" on a notice, "<t>.GET <path and query>" on a links request.
 */
function signature_is_valid(string $header, string $signedText, array $secrets, int $toleranceS = SIGNATURE_TOLERANCE_S): bool
{
    $timestamp = null;
    $signatures = [];
    foreach (explode(',', $header) as $part) {
        [$key, $value] = array_pad(explode('=', trim($part), 2), 2, '');
        if ($key === 't' && ctype_digit($value)) $timestamp = (int) $value;
        if ($key === 'v1') $signatures[] = $value;
    }
    if ($timestamp === null || !$signatures || abs(time() - $timestamp) > $toleranceS) return false;
    foreach ($secrets as $secret) {
        $expected = hash_hmac('sha256', $timestamp . '.' . $signedText, $secret);
        foreach ($signatures as $signature) {
            if (hash_equals($expected, $signature)) return true;
        }
    }
    return false;
}

function answer_json(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    header('Cache-Control: no-store');
    echo json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
}

/** Ends the request with 405 unless it uses `$method`. */
function only_method(string $method): void
{
    if ($_SERVER['REQUEST_METHOD'] === $method) return;
    header("Allow: $method");
    answer_json(405, ['error' => "$method only"]);
    exit;
}

/** Ends the request with 401 unless its Pay-Checkout-Signature signs `$signedText` with the app secret. */
function require_signature(string $signedText): void
{
    if (signature_is_valid($_SERVER['HTTP_PAY_CHECKOUT_SIGNATURE'] ?? '', $signedText, app_secrets())) return;
    answer_json(401, ['error' => 'bad or missing Pay-Checkout-Signature']);
    exit;
}

function e(string|int $text): string
{
    return htmlspecialchars((string) $text, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8');
}

function pesos(int $amount): string
{
    return '$ ' . number_format($amount, 0, ',', '.');
}

/**
 * Where the payment methods' icons come from: the payment service, not serve. Against the sandbox, the origin of
 * PAY_CHECKOUT_BASE_URL (the same value serve has); unset, any https host, since the live service names its icons' host.
 */
function icons_source(): string
{
    $base = setting('PAY_CHECKOUT_BASE_URL', '');
    $parts = $base === '' ? false : parse_url($base);
    if (!$parts || !isset($parts['scheme'], $parts['host'])) return 'https:';
    return $parts['scheme'] . '://' . $parts['host'] . (isset($parts['port']) ? ':' . $parts['port'] : '');
}

/** The page's head and its CSP: scripts and API calls only from pay-checkout serve, icons from the service, the one inline style by hash. */
function page_start(string $title, string $inlineStyle = ''): void
{
    $serve = rtrim(setting('PAY_CHECKOUT_SERVE_URL'), '/');
    $icons = icons_source();
    $styleHash = $inlineStyle === '' ? '' : " 'sha256-" . base64_encode(hash('sha256', $inlineStyle, true)) . "'";
    header("Content-Security-Policy: default-src 'self'; script-src $serve; connect-src $serve; img-src 'self' data: $serve $icons; style-src 'self'$styleHash; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    header('Content-Type: text/html; charset=utf-8');
    echo '<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
        '<title>', e($title), ' · ', e(STORE_NAME), '</title></head><body><main>';
}

function page_end(): void
{
    echo '</main></body></html>';
}
