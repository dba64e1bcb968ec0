<?php
// The shop's shared code: settings, the words in Spanish and English, the SQLite store, the two calls to the
// platform's `pay-checkout serve` and the Pay-Checkout-Signature check. Outside public/, so `php -S` never serves it.
declare(strict_types=1);

const CART_LIFETIME_S = 24 * 3600;
/** How far a signature's `t` may be from now, either way. */
const SIGNATURE_TOLERANCE_S = 300;
/** How long a call to serve may take before the page gives up and says so. */
const SERVE_TIMEOUT_S = 10;

/** What the shop sells: whole pesos, as the checkout takes them. */
const PRODUCTS = [
    'cafe' => ['es' => 'Café de Huila, 500 g', 'en' => 'Huila coffee, 500 g', 'price' => 38000],
    'panela' => ['es' => 'Panela orgánica, 1 kg', 'en' => 'Organic panela, 1 kg', 'price' => 9500],
];

/** Every string on the shop's pages, Spanish first. */
const WORDS = [
    'es' => [
        'products' => 'Productos',
        'go_pay' => 'Ir a pagar',
        'pick_one' => 'Elige al menos un producto.',
        'cart' => 'Carrito',
        'your_cart' => 'Tu carrito',
        'no_cart' => 'Ese carrito no existe',
        'back' => 'Volver a la tienda',
        'total' => 'Total',
        'paid' => 'Pagado. Gracias por tu compra.',
        'pending' => 'Pendiente de pago.',
        'not_selling' => 'La tienda todavía no recibe pagos. Vuelve a intentarlo más tarde.',
        'serve_down' => 'No pudimos preparar el pago. Recarga la página en un momento.',
        'settings' => 'Ajustes de pagos',
        'register_intro' => 'Registra la tienda en la plataforma de pagos. Después, conéctala con tu cuenta del servicio de pagos.',
        'register' => 'Registrar la tienda',
        'registered' => 'Tienda registrada',
        'status' => 'Estado',
        'status_pending' => 'Registrada, falta conectarla',
        'status_connected' => 'Conectada: la tienda recibe pagos',
        'status_disconnected' => 'Desconectada: la tienda no recibe pagos',
        'status_unknown' => 'No pudimos preguntar a la plataforma de pagos',
        'connect' => 'Conectar',
        'connect_intro' => 'Abre el registro del servicio de pagos. Al terminar, vuelve aquí y recarga.',
        'register_failed' => 'La plataforma de pagos no registró la tienda',
        'language' => 'English',
    ],
    'en' => [
        'products' => 'Products',
        'go_pay' => 'Go to checkout',
        'pick_one' => 'Choose at least one product.',
        'cart' => 'Cart',
        'your_cart' => 'Your cart',
        'no_cart' => 'That cart does not exist',
        'back' => 'Back to the shop',
        'total' => 'Total',
        'paid' => 'Paid. Thank you for your order.',
        'pending' => 'Waiting for payment.',
        'not_selling' => 'The shop does not take payments yet. Please try again later.',
        'serve_down' => 'We could not prepare the payment. Reload the page in a moment.',
        'settings' => 'Payment settings',
        'register_intro' => 'Register the shop with the payment platform. Then connect it to your payment service account.',
        'register' => 'Register the shop',
        'registered' => 'Shop registered',
        'status' => 'Status',
        'status_pending' => 'Registered, not connected yet',
        'status_connected' => 'Connected: the shop takes payments',
        'status_disconnected' => 'Disconnected: the shop takes no payments',
        'status_unknown' => 'We could not ask the payment platform',
        'connect' => 'Connect',
        'connect_intro' => "Opens the payment service's sign-up. When you are done, come back here and reload.",
        'register_failed' => 'The payment platform did not register the shop',
        'language' => 'Español',
    ],
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

function store_name(): string
{
    return setting('SHOP_NAME', 'Café La Montaña');
}

/** The shop's own origin as buyers and serve reach it (`https://shop.example`): its notify URL and allowed origin. */
function shop_url(): string
{
    return rtrim(setting('SHOP_PUBLIC_URL'), '/');
}

/** The platform's `pay-checkout serve` in partner mode (`https://pay.platform.example`). */
function serve_url(): string
{
    return rtrim(setting('PAY_CHECKOUT_SERVE_URL'), '/');
}

/** `es` unless the page was asked for `?lang=en`. */
function lang(): string
{
    return ($_GET['lang'] ?? '') === 'en' ? 'en' : 'es';
}

function t(string $key): string
{
    return WORDS[lang()][$key];
}

/** `$path` in the page's language. */
function here(string $path): string
{
    if (lang() === 'es') return $path;
    return $path . (str_contains($path, '?') ? '&' : '?') . 'lang=en';
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
    // What the platform gave the shop at registration: store_id, api_key, notify_secret, connect_url. The api key
    // and notify secret are shown once, so this file is their only copy: keep it off the web and out of backups you share.
    $pdo->exec('CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)');
    $pdo->exec('CREATE TABLE IF NOT EXISTS orders (
        reference TEXT PRIMARY KEY,
        items TEXT NOT NULL,
        amount INTEGER NOT NULL,
        description TEXT NOT NULL,
        created_at TEXT NOT NULL,
        link_hash TEXT,
        link_url TEXT,
        paid_at TEXT,
        paid_by_event TEXT,
        id_order INTEGER,
        gateway TEXT
    )');
    // One row per notice the shop acted on: the primary key is what makes a redelivery harmless.
    $pdo->exec('CREATE TABLE IF NOT EXISTS notices (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        reference TEXT NOT NULL,
        received_at TEXT NOT NULL,
        body TEXT NOT NULL
    )');
    // Every signed delivery and what the shop answered, retries included.
    $pdo->exec('CREATE TABLE IF NOT EXISTS deliveries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL,
        reference TEXT NOT NULL,
        answered INTEGER NOT NULL,
        at TEXT NOT NULL
    )');
    return $pdo;
}

function saved(string $name): ?string
{
    $query = db()->prepare('SELECT value FROM settings WHERE name = ?');
    $query->execute([$name]);
    $value = $query->fetchColumn();
    return $value === false ? null : (string) $value;
}

function save(array $values): void
{
    $insert = db()->prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
    foreach ($values as $name => $value) $insert->execute([$name, (string) $value]);
}

function now_iso(int $at = 0): string
{
    return gmdate('Y-m-d\TH:i:s\Z', $at ?: time());
}

/**
 * One JSON call to serve: [status, decoded body or null]. Status 0 when serve did not answer. PHP's own HTTP
 * stream, so the shop needs no curl extension; redirects are not followed (an answer is serve's or nothing).
 */
function serve_call(string $method, string $path, ?array $body = null, array $headers = []): array
{
    $lines = ['Accept: application/json'];
    if ($body !== null) $lines[] = 'Content-Type: application/json';
    foreach ($headers as $name => $value) $lines[] = "$name: $value";
    $context = stream_context_create(['http' => [
        'method' => $method,
        'header' => implode("\r\n", $lines),
        'content' => $body === null ? '' : json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE),
        'ignore_errors' => true,
        'follow_location' => 0,
        'timeout' => SERVE_TIMEOUT_S,
    ]]);
    $text = @file_get_contents(serve_url() . $path, false, $context);
    $status = 0;
    foreach ($http_response_header ?? [] as $line) {
        if (preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $match)) $status = (int) $match[1];
    }
    if ($text === false) return [0, null];
    $decoded = json_decode($text, true);
    return [$status, is_array($decoded) ? $decoded : null];
}

/** The shop's own calls, with its api key: `Authorization: Bearer`. */
function store_call(string $method, string $path, ?array $body = null, array $headers = []): array
{
    $key = saved('api_key');
    if ($key === null) return [401, null];
    return serve_call($method, $path, $body, ['Authorization' => "Bearer $key"] + $headers);
}

/**
 * The first call: registers the shop with the platform (`POST /v1/stores`) and keeps what it answers, shown once.
 * Returns null when done, else why not.
 */
function register_store(): ?string
{
    [$status, $answer] = serve_call('POST', '/v1/stores', [
        'name' => store_name(),
        'notify_url' => shop_url() . '/notify.php',
        'allowed_origins' => [shop_url()],
    ]);
    $data = $answer['data'] ?? null;
    if ($status !== 201 || !is_array($data) || !is_string($data['api_key'] ?? null) || !is_string($data['notify_secret'] ?? null)) {
        if (is_string($answer['message'] ?? null)) return $answer['message'];
        return $status === 0 ? 'no answer from ' . serve_url() : "HTTP $status";
    }
    save([
        'store_id' => (string) $data['store_id'],
        'api_key' => $data['api_key'],
        'notify_secret' => $data['notify_secret'],
        'connect_url' => (string) ($data['connect_url'] ?? ''),
        'status' => (string) ($data['status'] ?? 'pending'),
    ]);
    return null;
}

/** The shop as serve sees it now (`GET /v1/stores/me`): pending, connected or disconnected; null when serve did not say. */
function store_status(): ?string
{
    [$status, $answer] = store_call('GET', '/v1/stores/me');
    $value = $answer['data']['status'] ?? null;
    if ($status !== 200 || !is_string($value)) return null;
    // A fresh connect_url each time: the one registration gave is used up once the shop connects.
    $connect = $answer['data']['connect_url'] ?? null;
    save(['status' => $value] + (is_string($connect) ? ['connect_url' => $connect] : []));
    return $value;
}

function find_order(string $reference): ?array
{
    $query = db()->prepare('SELECT * FROM orders WHERE reference = ?');
    $query->execute([$reference]);
    return $query->fetch(PDO::FETCH_ASSOC) ?: null;
}

/** An order from the form's quantities, not yet a link; null when it holds nothing. */
function create_order(array $quantities): ?array
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
    // The description goes to the payment service and the buyer's receipt: in Spanish, whatever the page's language.
    $description = implode(', ', array_map(fn ($item) => $item['quantity'] . ' × ' . PRODUCTS[$item['product']]['es'], $items));
    // The shop's own order id, sent as the link's `reference`: random, so nobody can guess another buyer's cart page.
    $reference = 'ord_' . bin2hex(random_bytes(12));
    db()->prepare('INSERT INTO orders (reference, items, amount, description, created_at) VALUES (?, ?, ?, ?, ?)')
        ->execute([$reference, json_encode($items), $amount, $description, now_iso()]);
    return find_order($reference);
}

/**
 * The second call: the order's payment link (`POST /v1/stores/me/links`). The Idempotency-Key is the order's own, so
 * a retry after a timeout, a double click or a reload gets the same link, never a second one. Returns the order with
 * its link, or the reason there is none: 'not_selling' (serve refused the shop) or 'serve_down'.
 */
function ensure_link(array $order): array|string
{
    if ($order['link_hash']) return $order;
    [$status, $answer] = store_call('POST', '/v1/stores/me/links', [
        'description' => $order['description'],
        'amount' => (int) $order['amount'],
        'reference' => $order['reference'],
        'redirect_link' => shop_url() . '/cart.php?order=' . rawurlencode($order['reference']),
        'expires_at' => now_iso(strtotime($order['created_at']) + CART_LIFETIME_S),
    ], ['Idempotency-Key' => 'link-' . $order['reference']]);
    $link = $answer['data'] ?? null;
    if (($status === 200 || $status === 201) && is_string($link['hash'] ?? null)) {
        db()->prepare('UPDATE orders SET link_hash = ?, link_url = ? WHERE reference = ?')
            ->execute([$link['hash'], (string) ($link['url'] ?? ''), $order['reference']]);
        return find_order($order['reference']);
    }
    if ($status >= 400 && $status < 500) {
        error_log('shop: serve refused the link: ' . json_encode($answer));
        return 'not_selling';
    }
    return 'serve_down';
}

/**
 * Whether `Pay-Checkout-Signature: t=…,v1=…` signs `$signedText` with one of `$secrets`, within the tolerance.
 * The signed text of a notice is "<t>.<raw body>".
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

/**
 * Ends the request with 401 unless it carries the shop owner's password (HTTP Basic, SHOP_ADMIN_PASSWORD). The
 * settings page decides which payment account the shop's money goes to: never open it to anyone. A plugin puts it
 * behind its platform's own admin login instead.
 */
function require_admin(): void
{
    $password = setting('SHOP_ADMIN_PASSWORD');
    if (hash_equals($password, (string) ($_SERVER['PHP_AUTH_PW'] ?? ''))) return;
    header('WWW-Authenticate: Basic realm="shop admin", charset="UTF-8"');
    http_response_code(401);
    exit("401\n");
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
 * Where the payment methods' icons come from: the payment service. Against the sandbox, the origin of
 * PAY_CHECKOUT_BASE_URL; unset, any https host, since the live service names its icons' host.
 */
function icons_source(): string
{
    $base = setting('PAY_CHECKOUT_BASE_URL', '');
    $parts = $base === '' ? false : parse_url($base);
    if (!$parts || !isset($parts['scheme'], $parts['host'])) return 'https:';
    return $parts['scheme'] . '://' . $parts['host'] . (isset($parts['port']) ? ':' . $parts['port'] : '');
}

/** The page's head and its CSP: scripts and API calls only from serve, icons from the service, the one inline style by hash. */
function page_start(string $title, string $inlineStyle = ''): void
{
    $serve = serve_url();
    $icons = icons_source();
    $styleHash = $inlineStyle === '' ? '' : " 'sha256-" . base64_encode(hash('sha256', $inlineStyle, true)) . "'";
    header("Content-Security-Policy: default-src 'self'; script-src $serve; connect-src $serve; img-src 'self' data: $serve $icons; style-src 'self'$styleHash; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    header('Content-Type: text/html; charset=utf-8');
    header('Cache-Control: no-store');
    // The element speaks the page's language: <html lang="en"> makes it English.
    echo '<!doctype html><html lang="', lang() === 'en' ? 'en' : 'es-CO', '"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
        '<title>', e($title), ' · ', e(store_name()), '</title></head><body><main>';
}

/** The end of the page, with a link to the same page in the other language. */
function page_end(string $path): void
{
    $other = lang() === 'es' ? $path . (str_contains($path, '?') ? '&' : '?') . 'lang=en' : $path;
    echo '<p><a href="', e($other), '" hreflang="', lang() === 'es' ? 'en' : 'es', '">', e(t('language')), '</a></p></main></body></html>';
}
