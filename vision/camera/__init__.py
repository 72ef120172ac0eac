"""The box's camera: one :class:`Camera` interface over the Pi camera, USB webcams and
replayed photos, opened from one configuration string (:func:`open_camera`).

The daemon, the demo and ``familiar doctor`` import only from here, so which backend
delivers the frames stays a detail of this package.
"""

from vision.camera.base import Camera, CameraError, CameraTuning, ReplayFinished
from vision.camera.pi import Picamera2Camera
from vision.camera.replay import ReplayCamera
from vision.camera.sources import check_camera, open_camera
from vision.camera.usb import OpenCVCamera, usb_camera_devices

__all__ = [
    "Camera",
    "CameraError",
    "CameraTuning",
    "OpenCVCamera",
    "Picamera2Camera",
    "ReplayCamera",
    "ReplayFinished",
    "check_camera",
    "open_camera",
    "usb_camera_devices",
]
