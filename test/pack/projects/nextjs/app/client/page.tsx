import { Checkout } from './checkout';

export default function Page() {
  return <Checkout />;
}
