import { useRef, useState } from 'react';
import type { TwoFactorSetup, TwoFactorStatus } from '@shared/two-factor';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { toastApiError } from '@/lib/toast';
import { RecheckCancelled } from '../api/security';
import { useNewRecoveryCodes, useStartTwoFactorSetup, useTwoFactorStatus } from '../api/two-factor';
import { SectionQuery } from './section-query';
import { RecoveryCodes } from './two-factor-recovery-codes';
import { TwoFactorSetupStep } from './two-factor-setup';
import { TurnOffTwoFactor } from './two-factor-turn-off';

export const TWO_FACTOR_TITLE = 'Two-factor authentication';

type View = { step: 'status' } | { step: 'setup'; setup: TwoFactorSetup } | { step: 'codes'; codes: string[] };

/** A refused action's toast; a cancelled re-check says nothing. */
function quietly(err: unknown) {
  if (!(err instanceof RecheckCancelled)) toastApiError(err);
}

function StatusView({
  status,
  onSetup,
  onCodes,
  onTurnedOff,
}: {
  status: TwoFactorStatus;
  onSetup: (setup: TwoFactorSetup) => void;
  onCodes: (codes: string[]) => void;
  onTurnedOff: () => void;
}) {
  const start = useStartTwoFactorSetup();
  const newCodes = useNewRecoveryCodes();

  if (!status.enabled) {
    return (
      <div className="space-y-4">
        <p>
          Two-factor authentication is off. When it is on, signing in needs your password and a code from an app on your
          phone, so nobody can sign in with your password alone.
        </p>
        <Button
          disabled={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: onSetup, onError: quietly })}
        >
          {start.isPending ? 'Setting up...' : 'Set up'}
        </Button>
      </div>
    );
  }
  const left = status.recovery_codes_left;
  return (
    <div className="space-y-4">
      <p>
        Two-factor authentication is on. When you sign in, we ask for a code from your authenticator app after your
        password.
      </p>
      <p className={left <= 2 ? 'font-medium' : undefined}>
        You have {left} recovery {left === 1 ? 'code' : 'codes'} left.
        {left <= 2 ? ' Create new ones so you can still sign in if you lose your phone.' : ''}
      </p>
      <p className="text-sm text-muted-foreground">
        New recovery codes replace your old ones: the old ones stop working.
      </p>
      <div className="flex flex-wrap gap-3">
        <Button
          variant="outline"
          disabled={newCodes.isPending}
          onClick={() => newCodes.mutate(undefined, { onSuccess: onCodes, onError: quietly })}
        >
          {newCodes.isPending ? 'Creating codes...' : 'New recovery codes'}
        </Button>
        <TurnOffTwoFactor onDone={onTurnedOff} />
      </div>
    </div>
  );
}

/**
 * Settings, 'Two-factor authentication': off -> 'Set up' (QR code and key) -> 'Turn on' with the app's code -> the
 * recovery codes, once. On: how many recovery codes are left, 'New recovery codes' and 'Turn off'. Every step
 * behind the re-check (ConfirmIdentityProvider) and every step can be cancelled.
 */
export function TwoFactorSection() {
  const [view, setView] = useState<View>({ step: 'status' });
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Leaving a step removes the button that had focus: the card's heading takes it.
  const backToStatus = () => {
    setView({ step: 'status' });
    setTimeout(() => headingRef.current?.focus());
  };
  const status = useTwoFactorStatus();

  return (
    <SettingsSection
      title={TWO_FACTOR_TITLE}
      description="An extra check when you sign in: a code from an app on your phone as well as your password."
      headingRef={headingRef}
    >
      {view.step === 'setup' ? (
        <TwoFactorSetupStep
          setup={view.setup}
          onEnabled={(codes) => setView({ step: 'codes', codes })}
          onCancel={backToStatus}
        />
      ) : view.step === 'codes' ? (
        <RecoveryCodes codes={view.codes} onDone={backToStatus} />
      ) : (
        <SectionQuery query={status} what="your two-factor settings">
          {(data) => (
            <StatusView
              status={data}
              onSetup={(setup) => setView({ step: 'setup', setup })}
              onCodes={(codes) => setView({ step: 'codes', codes })}
              onTurnedOff={() => headingRef.current?.focus()}
            />
          )}
        </SectionQuery>
      )}
    </SettingsSection>
  );
}
