<?php
// POST /notify.php, called by the platform's serve for each outcome of one of this shop's orders:
// {"id", "type": "order.paid"|"order.failed"|"order.cancelled"|"order.refunded"|"store.connected"|"store.disconnected",
// "created_at", "data": {"store_id", "reference", …}}; a type it does not know is kept and answered 200. Signed over
// the raw body with this shop's notify_secret. Any answer but 2xx makes serve send the same notice (same id) again
// later, so the work is done once per id.
declare(strict_types=1);
require __DIR__ . '/../shop.php';

only_method('POST');
$body = file_get_contents('php://input');
$secret = saved('notify_secret');
if ($secret === null || !signature_is_valid($_SERVER['HTTP_PAY_CHECKOUT_SIGNATURE'] ?? '', $body, [$secret])) {
    answer_json(401, ['error' => 'bad or missing Pay-Checkout-Signature']);
    exit;
}
$notice = json_decode($body, true);
if (!is_array($notice) || !is_string($notice['id'] ?? null) || !is_string($notice['type'] ?? null) || !is_array($notice['data'] ?? null)) {
    answer_json(400, ['error' => 'not a notice']);
    exit;
}
$data = $notice['data'];
$reference = (string) ($data['reference'] ?? '');
$db = db();

$db->exec('BEGIN IMMEDIATE');
try {
    $db->prepare('INSERT INTO deliveries (event_id, reference, answered, at) VALUES (?, ?, 200, ?)')->execute([$notice['id'], $reference, now_iso()]);
    $insert = $db->prepare('INSERT OR IGNORE INTO notices (id, type, reference, received_at, body) VALUES (?, ?, ?, ?, ?)');
    $insert->execute([$notice['id'], $notice['type'], $reference, now_iso(), $body]);
    $first = $insert->rowCount() === 1;
    $ours = ($data['store_id'] ?? null) === saved('store_id');
    if ($first && !$ours) {
        error_log('shop: notice ' . $notice['id'] . ' names another store');
    } elseif ($first && ($notice['type'] === 'store.connected' || $notice['type'] === 'store.disconnected')) {
        save(['status' => $notice['type'] === 'store.connected' ? 'connected' : 'disconnected']);
    } elseif ($first && $notice['type'] === 'order.paid') {
        $order = find_order($reference);
        // Paid in full, in pesos, for this order's link: anything else stays in notices for a person to look at.
        if ($order && (int) ($data['amount'] ?? -1) === (int) $order['amount'] && ($data['currency'] ?? '') === 'COP' && ($data['link'] ?? null) === $order['link_hash']) {
            $db->prepare('UPDATE orders SET paid_at = ?, paid_by_event = ?, id_order = ?, gateway = ? WHERE reference = ? AND paid_at IS NULL')
                ->execute([now_iso(), $notice['id'], (int) ($data['id_order'] ?? 0), (string) ($data['gateway'] ?? ''), $order['reference']]);
        } else {
            error_log('shop: notice ' . $notice['id'] . ' does not match an order it could pay');
        }
    }
    $db->exec('COMMIT');
} catch (Throwable $error) {
    $db->exec('ROLLBACK');
    throw $error;
}
answer_json(200, ['received' => true, 'duplicate' => !$first]);
