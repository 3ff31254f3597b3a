// Must NOT compile (make test-types checks that tsc refuses it, naming
// the option): open's ring size is slots, not slot.
import { createRingscope } from 'ringscope';

export async function wrong(): Promise<void> {
  const rs = await createRingscope();
  await rs.open({ slot: 1024 });
}
