<?php
// POST /notify.php, called by `pay-checkout serve` (PAY_CHECKOUT_NOTIFY_URL) for each outcome of an order:
// {"id", "type": "order.paid"|"order.failed"|"order.cancelled"|"order.refunded", "created_at", "data": {…}}.
// Signed over the raw body. Any answer but 2xx makes serve send the same notice (same id) again later, so the
// work is done once per id: the notices table's primary key turns a redelivery into a plain 200.
declare(strict_types=1);
require __DIR__ . '/../shop.php';

only_method('POST');
$body = file_get_contents('php://input');
require_signature($body);
$notice = json_decode($body, true);
if (!is_array($notice) || !is_string($notice['id'] ?? null) || !is_string($notice['type'] ?? null) || !is_array($notice['data'] ?? null)) {
    answer_json(400, ['error' => 'not a notice']);
    exit;
}
$data = $notice['data'];
$db = db();

// A test switch, never set in production: SHOP_NOTIFY_FAILURES names a file holding how many deliveries to refuse
// with 500, as a shop in the middle of a deploy would.
$failures = getenv('SHOP_NOTIFY_FAILURES');
if ($failures && is_file($failures) && (int) file_get_contents($failures) > 0) {
    file_put_contents($failures, (string) ((int) file_get_contents($failures) - 1));
    $db->prepare('INSERT INTO deliveries (event_id, link, answered, at) VALUES (?, ?, 500, ?)')->execute([$notice['id'], (string) ($data['link'] ?? ''), now_iso()]);
    answer_json(500, ['error' => 'the shop is being deployed']);
    exit;
}

$db->exec('BEGIN IMMEDIATE');
try {
    $db->prepare('INSERT INTO deliveries (event_id, link, answered, at) VALUES (?, ?, 200, ?)')->execute([$notice['id'], (string) ($data['link'] ?? ''), now_iso()]);
    $insert = $db->prepare('INSERT OR IGNORE INTO notices (id, type, link, received_at, body) VALUES (?, ?, ?, ?, ?)');
    $insert->execute([$notice['id'], $notice['type'], (string) ($data['link'] ?? ''), now_iso(), $body]);
    $first = $insert->rowCount() === 1;
    if ($first && $notice['type'] === 'order.paid') {
        $cart = find_cart((string) ($data['link'] ?? ''));
        // Paid in full, in pesos: anything else is kept in notices for a person to look at, not shipped.
        if ($cart && (int) ($data['amount'] ?? -1) === (int) $cart['amount'] && ($data['currency'] ?? '') === 'COP') {
            $db->prepare('UPDATE carts SET paid_at = ?, paid_by_event = ?, id_order = ?, gateway = ? WHERE hash = ? AND paid_at IS NULL')
                ->execute([now_iso(), $notice['id'], (int) ($data['id_order'] ?? 0), (string) ($data['gateway'] ?? ''), $cart['hash']]);
        } else {
            error_log('shop: notice ' . $notice['id'] . ' does not match a cart it could pay');
        }
    }
    $db->exec('COMMIT');
} catch (Throwable $error) {
    $db->exec('ROLLBACK');
    throw $error;
}
answer_json(200, ['received' => true, 'duplicate' => !$first]);
