"""The emulator's admin prefix, `/_emulator/`: what a tester drives that the service itself has no word for.

Fault rules (`faults`), job states under the tester's control (`job_control`) and the state's snapshot,
import and reset (`state`) each have a route module here; `routes.admin_routes` gathers them.
Every admin route takes the emulator's admin token (printed in the banner), never a team's key
(`guard.AdminGuard`), and faults never touch the prefix itself.
"""
